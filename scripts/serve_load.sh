#!/usr/bin/env bash
# Load and fault run of `declass serve` on loopback, the figures of BENCHMARKS.md's
# "serve" section. Needs `wrk` (Debian package) and python3 (to JSON-encode bodies).
#
#   cargo build --release
#   scripts/serve_load.sh DATA_DIR [SECONDS_PER_RUN]     (DECLASS_BIN: another binary)
#
# 1. /analyze and /v1/sanitize (the example article, its person protected) at 1, 8 and
#    32 concurrent connections: throughput, p50/p99 latency, non-2xx answers and socket
#    errors, and the server's RSS after each run (cumulative request count beside it);
#    then /v1/sanitize with the same document eight times in one request (`documents`,
#    sanitized on all cores), whose documents per second compare with single requests'.
# 2. Faults: clients that hang up mid-request, oversized and malformed bodies, 32 clients
#    against the default `serve.max_concurrent` (8), and a count source that goes down
#    while serving (a second server counting through the first, which is then killed).
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:?usage: scripts/serve_load.sh DATA_DIR [SECONDS_PER_RUN]}
seconds=${2:-20}
bin=${DECLASS_BIN:-target/release/declass}
detect=patterns,lists,disease,ner
# shellcheck source=scripts/load_scratch.sh
. scripts/load_scratch.sh

# start NAME CONFIG: starts a server on a free port; sets $addr and $pid.
start() {
    local name=$1 config=$2
    "$bin" --data-dir "$data" --config "$config" serve --addr 127.0.0.1:0 --detect "$detect" \
        2>"$work/$name.log" &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 1 600); do
        addr=$(sed -n 's|.*serving on http://\([^/]*\)/.*|\1|p' "$work/$name.log" | head -1)
        [ -n "$addr" ] && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$work/$name.log"; exit 1; }
        sleep 0.1
    done
    echo "$name did not start" >&2
    exit 1
}

rss_mb() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }

python3 - "$work" <<'EOF'
import json, sys
work = sys.argv[1]
article = open("examples/article.txt").read()
bodies = {
    "analyze": {"text": article, "language": "en"},
    "sanitize": {"text": article, "protect": ["Margaret Ellison"], "format": "json"},
}
bodies["batch"] = {"documents": [bodies["sanitize"]] * 8}
for name, body in bodies.items():
    with open(f"{work}/{name}.lua", "w") as f:
        f.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n')
        f.write("wrk.body = " + json.dumps(json.dumps(body)) + "\n")
open(f"{work}/big.json", "w").write(json.dumps({"text": "a " * 1_600_000}))
open(f"{work}/long.json", "w").write(json.dumps({"text": article * 30, "protect": ["Margaret Ellison"]}))
EOF

# The load runs: enough permits that 32 connections measure the engine, not refusals.
cat >"$work/load.toml" <<'EOF'
[serve]
max_concurrent = 32
EOF
start load "$work/load.toml"
echo "server $addr (pid $pid), RSS at start: $(rss_mb "$pid") MB"
total=0
printf '%-15s %5s %10s %9s %9s %9s %8s %8s %9s %7s\n' route conns requests "req/s" "docs/s" "p50 ms" "p99 ms" non2xx sockerr "RSS MB"
for route in analyze sanitize batch; do
    path=/analyze label=/analyze per_request=1
    [ "$route" = sanitize ] && path=/v1/sanitize label=/v1/sanitize
    [ "$route" = batch ] && path=/v1/sanitize label="/v1/sanitize×8" per_request=8
    # Warm-up (count caches, the named-entity model's first load).
    wrk -t1 -c1 -d2s -s "$work/$route.lua" "http://$addr$path" >/dev/null
    for conns in 1 8 32; do
        # Work a previous run left in flight (its clients gone) holds permits until it
        # ends; a batch's takes a moment.
        sleep 2
        threads=$((conns < 2 ? conns : 2))
        out=$(wrk -t"$threads" -c"$conns" -d"${seconds}s" --timeout 30s --latency \
            -s "$work/$route.lua" "http://$addr$path")
        requests=$(echo "$out" | awk '/requests in/ {print $1}')
        total=$((total + requests))
        rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
        to_ms() { awk -v v="$1" 'BEGIN { if (v ~ /ms$/) { sub(/ms$/, "", v); print v } else if (v ~ /us$/) { sub(/us$/, "", v); print v / 1000 } else { sub(/s$/, "", v); print v * 1000 } }'; }
        p50=$(to_ms "$(echo "$out" | awk '$1 == "50%" {print $2}')")
        p99=$(to_ms "$(echo "$out" | awk '$1 == "99%" {print $2}')")
        non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
        sock=$(echo "$out" | awk -F'[ ,]+' '/Socket errors/ {print $4+$6+$8+$10}')
        docs=$(awk -v r="$rps" -v n="$per_request" 'BEGIN { printf "%.1f", r * n }')
        printf '%-15s %5d %10d %9s %9s %9.1f %8.1f %8s %9s %7s\n' "$label" "$conns" "$requests" "$rps" \
            "$docs" "$p50" "$p99" "${non2xx:-0}" "${sock:-0}" "$(rss_mb "$pid")"
    done
done
echo "requests served: $total; RSS now $(rss_mb "$pid") MB"

echo "== faults"
url="http://$addr"
code() { curl -s -o "$work/answer" -w '%{http_code}' "$@"; }
# Clients hanging up mid-request: 50 long documents abandoned after 50 ms each.
for _ in $(seq 1 50); do
    curl -s -o /dev/null --max-time 0.05 -H 'Content-Type: application/json' \
        --data-binary @"$work/long.json" "$url/v1/sanitize" || true
done
sleep 2
echo "50 clients hung up mid-request: health $(code "$url/health"), RSS $(rss_mb "$pid") MB"
echo "3.2 MB body: $(code -H 'Content-Type: application/json' --data-binary @"$work/big.json" "$url/v1/sanitize") $(cat "$work/answer")"
echo "malformed body: $(code -H 'Content-Type: application/json' --data-binary '{"text": "a", "protect": [7]}' "$url/v1/sanitize") $(cat "$work/answer")"
echo "after: health $(code "$url/health"), RSS $(rss_mb "$pid") MB"
load_pid=$pid

# 32 clients against the default bound of 8 requests in work: the rest get 503 at once.
start bounded /dev/null
out=$(wrk -t2 -c32 -d"${seconds}s" --timeout 30s --latency -s "$work/sanitize.lua" "http://$addr/v1/sanitize")
echo "default max_concurrent (8), 32 connections on /v1/sanitize:"
echo "$out" | grep -E 'requests in|Requests/sec|Non-2xx|Socket errors|50%|99%' | sed 's/^/    /'
kill "$pid"

# A count source going down while serving.
kill "$load_pid"
start upstream /dev/null
upstream_pid=$pid
cat >"$work/remote.toml" <<EOF
[corpus]
source = "remote"
[corpus.remote]
url = "http://$addr"
dialect = "declass"
retries = 1
timeout_ms = 2000
[corpus.cache]
disk = false
EOF
start downstream "$work/remote.toml"
down="http://$addr"
echo "through a live count source: $(code -H 'Content-Type: application/json' --data-binary @"$work/long.json" "$down/v1/sanitize")"
kill "$upstream_pid"
sleep 0.5
echo "count source killed, another document: $(code -H 'Content-Type: application/json' \
    --data-binary '{"text": "Peter Rowe, a gardener from Leeds, grew roses by the river.", "protect": ["Peter Rowe"]}' \
    "$down/v1/sanitize") $(cat "$work/answer")"
echo "the server stays up: health $(code "$down/health")"
