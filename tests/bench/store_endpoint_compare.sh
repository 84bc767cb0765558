#!/usr/bin/env bash
# Endpoint throughput with a workspace against in memory, side by side in one run (issues 5 and 15;
# figures in docs/PERFORMANCE.md). For each round: `inflight --headless --in-memory`, then
# `--workspace` on a fresh file in the default sync mode (normal), then with `--sync full`; against
# each, inflight_load (32 keep-alive
# connections, JSON protocol) runs --mode send (SendMessage req/s) and --mode receive, whose fill
# phase is SendMessageBatch(10) (messages filled in FILL_SECONDS) and whose measured phase is
# ReceiveMessage(10) + DeleteMessageBatch (msg/s).
#   BUILD_DIR=build ROUNDS=2 LOAD_SECONDS=5 FILL_SECONDS=5 bash tests/bench/store_endpoint_compare.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
BUILD_DIR=${BUILD_DIR:-build}
ROUNDS=${ROUNDS:-2}
WORK=$(mktemp -d)
PID=
trap '[[ -n "$PID" ]] && kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT

run() { # label, server options...
    local label=$1 url=
    shift
    "$BUILD_DIR/app/inflight" --headless --listen 127.0.0.1:0 "$@" >"$WORK/out" 2>&1 &
    PID=$!
    for _ in $(seq 100); do
        url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/out" | head -1 || true)
        [[ -n "$url" ]] && break
        sleep 0.1
    done
    for mode in send receive; do
        "$BUILD_DIR/tests/bench/load/inflight_load" --url "$url" --mode "$mode" \
            --seconds "${LOAD_SECONDS:-5}" --fill-seconds "${FILL_SECONDS:-5}" --label "$label" 2>&1 |
            grep -E '^(result|inflight_load: filled)' | sed "s/^inflight_load: filled/fill $label (SendMessageBatch):/"
    done
    kill "$PID"
    wait "$PID" 2>/dev/null || true
    PID=
}

for round in $(seq "$ROUNDS"); do
    echo "# round $round"
    run in-memory --in-memory
    rm -f "$WORK"/w.inflight*
    run workspace --workspace "$WORK/w.inflight"
    rm -f "$WORK"/w.inflight*
    run workspace-full --workspace "$WORK/w.inflight" --sync full
done
