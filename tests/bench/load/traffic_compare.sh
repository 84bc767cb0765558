#!/usr/bin/env bash
# The window's endpoint with the traffic log on against the same window with it off, in one run.
#
#   bash tests/bench/load/traffic_compare.sh     # build dir: build/ (BUILD_DIR overrides)
#
# ROUNDS (6) rounds alternate the two: each starts inflight_window_load (the real MainWindow and
# its endpoint; with --traffic-log on the log is kept and the Traffic and Clients tabs show it),
# runs inflight_load SendMessage over JSON (CONNECTIONS=32, LOAD_SECONDS=6 after WARMUP=1) and
# reads the window's own figures. Prints the median requests/s of each, their ratio (issue 12: at
# least 85%), and the traffic log's largest size against its caps.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

BUILD_DIR=${BUILD_DIR:-build-bench}
LOAD_SECONDS=${LOAD_SECONDS:-6}
WARMUP=${WARMUP:-1}
ROUNDS=${ROUNDS:-6}
CONNECTIONS=${CONNECTIONS:-32}
LOAD="$BUILD_DIR/tests/bench/load/inflight_load"
WINDOW="$BUILD_DIR/tests/bench/load/inflight_window_load"
for binary in "$LOAD" "$WINDOW"; do
    [[ -x "$binary" ]] || {
        echo "traffic_compare: $binary is missing; build with: cmake --preset bench && cmake --build $BUILD_DIR --target inflight_load inflight_window_load" >&2
        exit 1
    }
done

WORK=$(mktemp -d)
PID=
cleanup() {
    if [[ -n "$PID" ]] && kill -0 "$PID" 2>/dev/null; then
        kill "$PID" 2>/dev/null || true
        wait "$PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# run LOG ROUND: one window with the log on or off under one load run.
run() {
    local log=$1 round=$2 url=
    : >"$WORK/window.out"
    "$WINDOW" --traffic-log "$log" --seconds $((LOAD_SECONDS + WARMUP + 3)) >"$WORK/window.out" 2>/dev/null &
    PID=$!
    for _ in $(seq 100); do
        url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/window.out" | head -1 || true)
        [[ -n "$url" ]] && break
        sleep 0.05
    done
    [[ -n "$url" ]] || { echo "traffic_compare: the window did not start" >&2; exit 1; }
    local rate
    rate=$("$LOAD" --url "$url" --mode send --protocol json --connections "$CONNECTIONS" \
        --seconds "$LOAD_SECONDS" --warmup "$WARMUP" | sed -n 's/.* rate=\([0-9]*\) .*/\1/p')
    wait "$PID" || true
    PID=
    echo "$log $round $rate" >>"$WORK/results"
    grep '^traffic ' "$WORK/window.out" >>"$WORK/traffic" || true
    echo "round $round, traffic log $log: $rate req/s" >&2
}

for round in $(seq "$ROUNDS"); do
    if ((round % 2)); then run off "$round"; run on "$round"; else run on "$round"; run off "$round"; fi
done

python3 - "$WORK/results" "$WORK/traffic" <<'PY'
import statistics, sys
rates = {"off": [], "on": []}
for line in open(sys.argv[1]):
    log, _, rate = line.split()
    rates[log].append(int(rate))
off, on = statistics.median(rates["off"]), statistics.median(rates["on"])
print(f"| window endpoint, SendMessage JSON | median req/s | rounds |")
print(f"|---|---:|---|")
print(f"| traffic log off | {off:,.0f} | {', '.join(f'{r:,}' for r in rates['off'])} |")
print(f"| traffic log on  | {on:,.0f} | {', '.join(f'{r:,}' for r in rates['on'])} |")
print(f"\nwith the log on: {100 * on / off:.1f}% of off (target: at least 85%)")
for line in open(sys.argv[2]):
    f = dict(x.split("=") for x in line.split()[1:])
    print(f"log: {int(f['records']):,} requests, at most {int(f['max_records']):,} kept "
          f"(cap {int(f['cap_records']):,}), at most {int(f['max_body_bytes']):,} body bytes "
          f"(cap {int(f['cap_body_bytes']):,}), {int(f['dropped']):,} dropped")
PY
