#!/usr/bin/env bash
# Checks that a speed change changed no decision: two declass binaries sanitize the same
# documents (the Text Anonymization Benchmark's format) with the same data directory and
# configuration, and their JSON reports must be byte-identical, for --jobs 1 and --jobs 2.
#
#   scripts/same_outputs.sh OLD_BINARY NEW_BINARY DATA_DIR DOCS.json [extra sanitize args...]
#
# Exit status 0 when every pair of reports is identical, 1 (naming the first difference)
# otherwise.
set -euo pipefail
if [ "$#" -lt 4 ]; then
    echo "usage: $0 OLD_BINARY NEW_BINARY DATA_DIR DOCS.json [sanitize args...]" >&2
    exit 2
fi
old=$1 new=$2 data=$3 docs=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for jobs in 1 2; do
    for side in old new; do
        binary=$old
        [ "$side" = new ] && binary=$new
        "$binary" --data-dir "$data" sanitize --tab "$docs" --format json --force \
            --jobs "$jobs" --out "$work/$side-$jobs.json" "$@"
    done
    if ! cmp "$work/old-$jobs.json" "$work/new-$jobs.json"; then
        echo "reports differ with --jobs $jobs" >&2
        exit 1
    fi
done
cmp "$work/new-1.json" "$work/new-2.json"
echo "identical: $(basename "$docs"), --jobs 1 and 2, $(wc -c < "$work/new-1.json") bytes"
