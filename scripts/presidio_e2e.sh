#!/usr/bin/env bash
# Presidio's end-to-end API tests against `declass serve`, compared strictly.
# usage: scripts/presidio_e2e.sh [PRESIDIO_CHECKOUT] [DECLASS_BIN]
# Without a checkout, runs the copy in tests/presidio_e2e (see its README.md); with one,
# that checkout's `e2e-tests` (another Presidio version's) with tests/presidio_e2e's
# conftest.py, in a temporary directory. Needs pytest and requests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
checkout="${1:-}"
bin="$(realpath "${2:-$root/target/release/declass}")"
suite="$root/tests/presidio_e2e"
if [ -n "$checkout" ]; then
    scratch="$(mktemp -d)"
    trap 'rm -rf "$scratch"' EXIT
    cp -r "$checkout/e2e-tests/." "$scratch/"
    cp "$suite/conftest.py" "$scratch/conftest.py"
    suite="$scratch"
fi
cd "$suite"
DECLASS_BIN="$bin" python3 -m pytest -q -p no:cacheprovider \
    tests/test_api_analyzer.py tests/test_api_anonymizer.py tests/test_api_e2e_integration_flows.py
