#!/usr/bin/env bash
# Two builds of `inflight` side by side in one run: SendMessage requests/s and ReceiveMessage(10) +
# DeleteMessageBatch messages/s, over JSON and over Query, each binary's rate and the ratio
# NEW / BASE. For a change that must not cost the endpoint more than so much (issue 35: within
# 10% of the build of 6398db5): this machine's speed drifts by 10-30% between runs, so the two
# binaries take short slices in turn (A B B A ...) and the drift falls on both alike.
#
#   bash tests/bench/load/builds_compare.sh BASE_INFLIGHT NEW_INFLIGHT
#       # ROUNDS=6 SLICE_SECONDS=2 BACKLOG=300000 CONNECTIONS=32 BUILD_DIR=build-bench
#
# Each binary runs `--headless --in-memory` on its own free 127.0.0.1 port. Their receive queues
# (one per protocol) are filled first with SendMessageBatch(10) to BACKLOG messages, not measured.
# Then ROUNDS rounds of the four loads (inflight_load, CONNECTIONS keep-alive connections,
# 100-byte bodies, SLICE_SECONDS each after 0.5 s of warm-up), each load on both servers in turn,
# the order of the two alternating every round; a receive slice's queue is topped up afterwards
# (not measured). Prints per load both rates over all slices, their ratio and the median of the
# rounds' ratios. LOAD overrides the load generator (default BUILD_DIR/tests/bench/load/inflight_load).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

[[ $# -eq 2 ]] || {
    echo "usage: builds_compare.sh BASE_INFLIGHT NEW_INFLIGHT" >&2
    exit 1
}
BUILD_DIR=${BUILD_DIR:-build-bench}
ROUNDS=${ROUNDS:-6}
SLICE_SECONDS=${SLICE_SECONDS:-2}
BACKLOG=${BACKLOG:-300000}
CONNECTIONS=${CONNECTIONS:-32}
LOAD=${LOAD:-$BUILD_DIR/tests/bench/load/inflight_load}
BINARIES=("$1" "$2")
for binary in "${BINARIES[@]}" "$LOAD"; do
    [[ -x "$binary" ]] || {
        echo "builds_compare: $binary is missing (the load generator: cmake --preset bench && cmake --build $BUILD_DIR --target inflight_load)" >&2
        exit 1
    }
done

WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

URLS=()
for i in 0 1; do
    "${BINARIES[$i]}" --headless --in-memory --listen 127.0.0.1:0 >"$WORK/server$i.out" 2>&1 &
    PIDS+=($!)
    url=
    for _ in $(seq 200); do
        url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/server$i.out" | head -1 || true)
        [[ -n "$url" ]] && break
        sleep 0.05
    done
    [[ -n "$url" ]] || {
        echo "builds_compare: ${BINARIES[$i]} did not start:" >&2
        cat "$WORK/server$i.out" >&2
        exit 1
    }
    URLS+=("$url")
done

# run_load SERVER OPTIONS...: one inflight_load run against server 0 or 1; prints its result line.
run_load() {
    local server=$1 line
    shift
    line=$("$LOAD" --url "${URLS[$server]}" --connections "$CONNECTIONS" "$@" 2>"$WORK/err" |
        grep '^result') || {
        echo "builds_compare: inflight_load $* failed:" >&2
        cat "$WORK/err" >&2
        exit 1
    }
    echo "$line"
}

field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$2"; }

# fill SERVER PROTOCOL COUNT: SendMessageBatch(10) of COUNT messages into a receive queue.
fill() {
    local line
    line=$(run_load "$1" --mode fill --protocol json --queue "compare-receive-$2" \
        --fill-seconds 600 --fill-messages "$3")
    [[ "$(field errors "$line")" == 0 ]] || {
        echo "builds_compare: the fill failed: $line" >&2
        exit 1
    }
}

echo "builds_compare: $ROUNDS round(s) of ${SLICE_SECONDS} s slices, backlog $BACKLOG," \
    "$CONNECTIONS connections, $(nproc) CPU(s), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for server in 0 1; do
    fill "$server" json "$BACKLOG"
    fill "$server" query "$BACKLOG"
done

PLAN=("send json" "receive json" "send query" "receive query")
for round in $(seq "$ROUNDS"); do
    for load in "${PLAN[@]}"; do
        read -r mode protocol <<<"$load"
        options=(--mode "$mode" --protocol "$protocol" --seconds "$SLICE_SECONDS" --warmup 0.5)
        if [[ "$mode" == send ]]; then
            options+=(--queue "compare-send-$protocol")
        else
            options+=(--queue "compare-receive-$protocol" --fill-seconds 0)
        fi
        order=(0 1)
        ((round % 2 == 0)) && order=(1 0)
        for server in "${order[@]}"; do
            line=$(run_load "$server" "${options[@]}")
            echo "$line round=$round server=$server" | tee -a "$WORK/slices" >&2
            if [[ "$mode" == receive ]]; then
                taken=$(field messages "$line")
                warm=$(awk -v m="$taken" -v s="$(field seconds "$line")" 'BEGIN { printf "%d", m / s * 0.6 }')
                fill "$server" "$protocol" $((taken + warm))
            fi
        done
    done
done

/usr/bin/env python3 - "$WORK/slices" "$1" "$2" <<'PY'
import statistics, sys
slices, base, new = sys.argv[1:4]
rows = [dict(f.split("=", 1) for f in line.split()[1:] if "=" in f) for line in open(slices)]

def count(r):  # requests for send, messages for receive
    return float(r["requests"] if r["mode"] == "send" else r["messages"])

def of(mode, protocol, server):
    return sorted((r for r in rows if r["mode"] == mode and r["protocol"] == protocol
                   and r["server"] == str(server)), key=lambda r: int(r["round"]))

def rate(rs):
    return sum(count(r) for r in rs) / sum(float(r["seconds"]) for r in rs)

print(f"NEW {new} against BASE {base}, slices in turn:")
for mode, unit in (("send", "req/s"), ("receive", "msg/s")):
    for protocol in ("json", "query"):
        a, b = of(mode, protocol, 0), of(mode, protocol, 1)
        rounds = [float(y["rate"]) / float(x["rate"]) for x, y in zip(a, b)]
        print(f"  {mode:7} {protocol:5} base {rate(a):>9,.0f} {unit}, new {rate(b):>9,.0f} {unit}:"
              f" new/base {rate(b) / rate(a):.3f} (median of rounds {statistics.median(rounds):.3f};"
              f" rounds {', '.join(f'{x:.2f}' for x in rounds)})")
PY
