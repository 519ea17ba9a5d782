#!/usr/bin/env bash
# Presidio's end-to-end API tests against `declass serve`, compared strictly.
# usage: scripts/presidio_e2e.sh PRESIDIO_CHECKOUT [DECLASS_BIN]
# The tests are Presidio's (its `e2e-tests` directory, MIT licence) and are not copied into
# this repository: they are run from a copy in a temporary directory, with
# scripts/presidio_e2e_conftest.py as their conftest.py (one server, a strict JSON
# comparison, the tests declass answers differently listed with why). Needs pytest and
# requests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
checkout="${1:?usage: $0 PRESIDIO_CHECKOUT [DECLASS_BIN]}"
bin="$(realpath "${2:-$root/target/release/declass}")"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp -r "$checkout/e2e-tests/." "$scratch/"
cp "$root/scripts/presidio_e2e_conftest.py" "$scratch/conftest.py"
cd "$scratch"
DECLASS_BIN="$bin" python3 -m pytest -q -p no:cacheprovider \
    tests/test_api_analyzer.py tests/test_api_anonymizer.py tests/test_api_e2e_integration_flows.py
