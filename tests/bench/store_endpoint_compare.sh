#!/usr/bin/env bash
# Endpoint throughput with a workspace against in memory, side by side in one run (issues 5 and 15;
# figures in docs/PERFORMANCE.md). Three servers run at once, idle but for the one under load:
# `inflight --headless --in-memory`, `--workspace` on a fresh file in the default sync mode
# (normal), and `--workspace --sync full`. inflight_load (32 keep-alive connections, JSON protocol)
# measures them in short slices taken in turn, the order rotated every round, so that this
# machine's drift (its speed moves by a third within a minute) falls on all three alike:
#   send     SendMessage req/s, ROUNDS slices of SLICE_SECONDS per server;
#   receive  one queue per server filled first with SendMessageBatch(10) (FILL_MESSAGES, at most
#            FILL_SECONDS; not measured), then ROUNDS slices of ReceiveMessage(10) +
#            DeleteMessageBatch (msg/s) on it.
# Each server's rate is its total over its slices; the ratios are against in memory.
#   BUILD_DIR=build ROUNDS=6 SLICE_SECONDS=3 bash tests/bench/store_endpoint_compare.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
BUILD_DIR=${BUILD_DIR:-build-bench}
ROUNDS=${ROUNDS:-6}
SLICE_SECONDS=${SLICE_SECONDS:-3}
FILL_SECONDS=${FILL_SECONDS:-40}
FILL_MESSAGES=${FILL_MESSAGES:-3000000}
LOAD=$BUILD_DIR/tests/bench/load/inflight_load
WORK=$(mktemp -d)
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"' EXIT

names=(in-memory workspace workspace-full)
declare -A url
start() { # name, server options...
    local name=$1 u=
    shift
    "$BUILD_DIR/app/inflight" --headless --listen 127.0.0.1:0 "$@" >"$WORK/$name.out" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 100); do
        u=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/$name.out" | head -1 || true)
        [[ -n "$u" ]] && break
        sleep 0.1
    done
    [[ -n "$u" ]] || { echo "store_endpoint_compare: $name did not start" >&2; exit 1; }
    url[$name]=$u
}
start in-memory --in-memory
start workspace --workspace "$WORK/normal.inflight"
start workspace-full --workspace "$WORK/full.inflight" --sync full

# One slice: prints "name count seconds" from inflight_load's result line.
slice() { # name, inflight_load options...
    local name=$1 line
    shift
    line=$("$LOAD" --url "${url[$name]}" --label "$name" "$@" 2>"$WORK/err" | grep '^result') || {
        cat "$WORK/err" >&2
        exit 1
    }
    echo "$line" >&2
    local count seconds
    count=$(sed -n 's/.* messages=\([0-9]*\).*/\1/p' <<<"$line")
    seconds=$(sed -n 's/.* seconds=\([0-9.]*\).*/\1/p' <<<"$line")
    echo "$name $count $seconds"
}

measure() { # mode, inflight_load options...
    local mode=$1
    shift
    for round in $(seq "$ROUNDS"); do
        for i in 0 1 2; do
            local name=${names[$(((i + round - 1) % 3))]}
            echo "$round $(slice "$name" --mode "$mode" --seconds "$SLICE_SECONDS" --warmup 0.5 "$@")"
        done
    done >"$WORK/$mode.slices"
    # Totals per server, and each round's ratio to in memory.
    awk -v mode="$mode" '
        { n[$2] += $3; s[$2] += $4; r[$1, $2] = $4 > 0 ? $3 / $4 : 0; if ($1 > rounds) rounds = $1 }
        END {
            unit = mode == "send" ? "req/s" : "msg/s"
            base = n["in-memory"] / s["in-memory"]
            split("in-memory workspace workspace-full", order, " ")
            for (k = 1; k <= 3; ++k) {
                name = order[k]; rate = n[name] / s[name]
                line = sprintf("%s %s: %.0f %s (%.1f%% of in-memory); rounds:", mode, name, rate,
                               unit, 100 * rate / base)
                for (i = 1; i <= rounds; ++i)
                    line = line sprintf(" %.0f (%.0f%%)", r[i, name],
                                        r[i, "in-memory"] > 0 ? 100 * r[i, name] / r[i, "in-memory"] : 0)
                print line
            }
        }' "$WORK/$mode.slices"
}

measure send --queue compare-send
for name in "${names[@]}"; do
    "$LOAD" --url "${url[$name]}" --label "$name" --mode fill --queue compare-receive \
        --fill-seconds "$FILL_SECONDS" --fill-messages "$FILL_MESSAGES" 2>/dev/null |
        sed "s/^result/fill/"
done
measure receive --queue compare-receive --fill-seconds 0
