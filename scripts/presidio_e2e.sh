#!/usr/bin/env bash
# Presidio's end-to-end API tests against `declass serve`, compared strictly.
# usage: scripts/presidio_e2e.sh PRESIDIO_SOURCE [DECLASS_BIN]
# PRESIDIO_SOURCE is a checkout of Presidio's repository or its git directory (a mirror).
# The tests are Presidio's (its `e2e-tests`, MIT licence) and are not kept in this
# repository: they are copied from the source into a temporary directory, with
# scripts/presidio_e2e_conftest.py as their conftest.py (one server, a strict JSON
# comparison, the tests declass answers differently listed with why). `PYTHON` names the
# interpreter (default python3), which needs pytest and requests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source="${1:?usage: $0 PRESIDIO_SOURCE [DECLASS_BIN]}"
bin="$(realpath "${2:-$root/target/release/declass}")"
python="${PYTHON:-python3}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
if [ -d "$source/e2e-tests" ]; then
    cp -r "$source/e2e-tests" "$scratch/"
elif git --git-dir="$source" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    # A git directory: Presidio's tests at its HEAD.
    git --git-dir="$source" archive HEAD e2e-tests 2>/dev/null | tar -x -C "$scratch"
else
    echo "$source: neither a checkout of Presidio's repository nor its git directory" >&2
    exit 1
fi
suite="$scratch/e2e-tests"
tests=(tests/test_api_analyzer.py tests/test_api_anonymizer.py tests/test_api_e2e_integration_flows.py)
for test in "${tests[@]}"; do
    [ -f "$suite/$test" ] || { echo "$source: no e2e-tests/$test (not a Presidio source?)" >&2; exit 1; }
done
cp "$root/scripts/presidio_e2e_conftest.py" "$suite/conftest.py"
cd "$suite"
DECLASS_BIN="$bin" "$python" -m pytest -q -p no:cacheprovider "${tests[@]}"
