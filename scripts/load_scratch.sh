# Sourced by the load scripts (serve_load.sh, presidio_services_load.sh): a scratch
# directory `$work` and a list `pids` of the servers a script starts, all stopped and
# removed however the script ends, so a failed run leaves no server holding a port.
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
