#!/usr/bin/env bash
# The server's own instructions per request, counted by valgrind (callgrind), for one or more
# `inflight` binaries side by side: SendMessage per request, ReceiveMessage(10) +
# DeleteMessageBatch per message, over JSON and over Query.
#
#   bash tests/bench/load/instructions_compare.sh build/app/inflight [/tmp/other/inflight ...]
#
# Why: on this shared 2-core machine the rates floor_compare.sh measures drift by 10-30% between
# rounds, more than one change to the receive path moves them; instruction counts do not drift
# (two runs of one binary agree within 0.1%). They count what the server does in user space only
# (the kernel's socket work, about half of a request's CPU time, is not in them) and instructions,
# not time (a cache miss costs one), so they tell whether a change removed work, and the rates
# tell what it is worth.
#
# Each binary runs `--headless --in-memory` under callgrind with instrumentation off; for each
# measurement the counters are zeroed, instrumentation turned on for one inflight_load run of
# LOAD_SECONDS (6) with CONNECTIONS (8) connections and 100-byte bodies, and the total divided by the
# requests (send) or messages (receive) the load counted. The receive queue is filled first
# (FILL_MESSAGES, 60,000, with instrumentation off). Needs valgrind (Debian: apt-get install
# valgrind). LOAD overrides the load generator (default: BUILD_DIR/tests/bench/load/inflight_load).
# KEEP_DUMPS=DIR keeps each measurement's callgrind profile there (callgrind_annotate reads them:
# where the instructions go), named after the binary's place in the list and the load.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

BUILD_DIR=${BUILD_DIR:-build-bench}
LOAD=${LOAD:-$BUILD_DIR/tests/bench/load/inflight_load}
SECONDS_EACH=${LOAD_SECONDS:-6}
CONNECTIONS=${CONNECTIONS:-8}
FILL_MESSAGES=${FILL_MESSAGES:-60000}
KEEP_DUMPS=${KEEP_DUMPS:-}

command -v valgrind >/dev/null && command -v callgrind_control >/dev/null || {
    echo "instructions_compare: valgrind is not installed (Debian: sudo apt-get install valgrind)" >&2
    exit 1
}
[[ $# -gt 0 ]] || {
    echo "usage: instructions_compare.sh INFLIGHT_BINARY [INFLIGHT_BINARY ...]" >&2
    exit 1
}
[[ -x "$LOAD" ]] || {
    echo "instructions_compare: $LOAD is missing; build with: cmake --preset bench && cmake --build $BUILD_DIR --target inflight_load" >&2
    exit 1
}

WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# measure LABEL ARGS...: one load run with instrumentation on; prints instructions per item.
measure() {
    local label=$1
    shift
    callgrind_control -z "$SERVER_PID" >/dev/null 2>&1
    callgrind_control -i on "$SERVER_PID" >/dev/null 2>&1
    local line
    line=$("$LOAD" --url "$URL" --connections "$CONNECTIONS" --warmup 0 --seconds "$SECONDS_EACH" "$@" 2>/dev/null | grep '^result')
    callgrind_control -i off "$SERVER_PID" >/dev/null 2>&1
    callgrind_control -d "$label" "$SERVER_PID" >/dev/null 2>&1
    local dump instructions items
    dump=$(ls -t "$WORK"/callgrind.out.* | head -1)
    instructions=$(grep -E '^(summary|totals):' "$dump" | tail -1 | awk '{print $2}')
    items=$(grep -o 'messages=[0-9]*' <<<"$line" | cut -d= -f2)
    [[ -n "$items" && "$items" -gt 0 ]] || {
        echo "instructions_compare: the $label load counted nothing" >&2
        exit 1
    }
    [[ -z "$KEEP_DUMPS" ]] || cp "$dump" "$KEEP_DUMPS/callgrind.$BINARY_INDEX.$label"
    echo "$((instructions / items))"
}

printf '%-40s %12s %12s %12s %12s\n' binary "send json" "receive json" "send query" "receive query"
[[ -z "$KEEP_DUMPS" ]] || mkdir -p "$KEEP_DUMPS"
BINARY_INDEX=0
for binary in "$@"; do
    BINARY_INDEX=$((BINARY_INDEX + 1))
    port=$(free_port)
    URL=http://127.0.0.1:$port
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$WORK/callgrind.out.%p" \
        "$binary" --headless --in-memory --listen "127.0.0.1:$port" >"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 300); do
        curl -s -o /dev/null "$URL/" && break
        sleep 0.2
    done
    results=()
    for protocol in json query; do
        results+=("$(measure "send-$protocol" --mode send --protocol "$protocol")")
        "$LOAD" --url "$URL" --mode fill --protocol "$protocol" --fill-seconds 60 \
            --fill-messages "$FILL_MESSAGES" --queue "fill-$protocol" >/dev/null 2>&1
        results+=("$(measure "receive-$protocol" --mode receive --protocol "$protocol" --fill-seconds 0 --queue "fill-$protocol")")
    done
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
    rm -f "$WORK"/callgrind.out.*
    printf '%-40s %12s %12s %12s %12s\n' "$binary" "${results[@]}"
done
echo "(instructions in user space per SendMessage request, and per message received and deleted)"
