#!/usr/bin/env bash
# Issue 15, item 2: ReceiveMessage(10) + DeleteMessageBatch messages/s against SendMessage
# requests/s, on JSON and on Query, measured in short slices taken in turn on one server, so that
# this machine's drift (its speed moves by a third within a minute, more than the distance of the
# ratio from its target) falls on both sides of each ratio alike. floor_compare.sh measures the
# same loads minutes apart, each on a fresh server after a 10 s fill; this script is the sharper
# reading of the ratio, floor_compare.sh the one beside the floor.
#
#   bash tests/bench/load/receive_send_slices.sh     # ROUNDS=8 SLICE_SECONDS=2 BUILD_DIR=build
#
# One `inflight --headless --in-memory` on a free 127.0.0.1 port. Its two receive queues (one per
# protocol) are filled first with SendMessageBatch(10) to BACKLOG (1,000,000) messages, not
# measured. Then ROUNDS rounds of four slices (inflight_load, CONNECTIONS (32) keep-alive
# connections, 100-byte bodies, SLICE_SECONDS each after 0.5 s of warm-up): SendMessage over JSON,
# receive + delete over JSON, SendMessage over Query, receive + delete over Query, the order
# rotated every round. After each receive slice its queue is topped up (not measured) by what the
# slice took, so every receive slice starts from the same backlog. Around each slice the server's
# CPU time (user + system) is sampled.
#
# Prints per protocol the rates over all slices, the ratio (target: at least 3), each round's
# ratio and their median, and the server's CPU per request (send) and per message (receive).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

BUILD_DIR=${BUILD_DIR:-build-bench}
ROUNDS=${ROUNDS:-8}
SLICE_SECONDS=${SLICE_SECONDS:-2}
BACKLOG=${BACKLOG:-1000000}
CONNECTIONS=${CONNECTIONS:-32}
INFLIGHT=${INFLIGHT:-$BUILD_DIR/app/inflight}
LOAD=${LOAD:-$BUILD_DIR/tests/bench/load/inflight_load}
for binary in "$INFLIGHT" "$LOAD"; do
    [[ -x "$binary" ]] || {
        echo "receive_send_slices: $binary is missing; build with: cmake --preset bench && cmake --build $BUILD_DIR --target inflight inflight_load" >&2
        exit 1
    }
done

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

"$INFLIGHT" --headless --in-memory --listen 127.0.0.1:0 >"$WORK/server.out" 2>&1 &
SERVER_PID=$!
URL=
for _ in $(seq 200); do
    URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/server.out" | head -1 || true)
    [[ -n "$URL" ]] && break
    sleep 0.05
done
[[ -n "$URL" ]] || {
    echo "receive_send_slices: the server did not start:" >&2
    cat "$WORK/server.out" >&2
    exit 1
}

# CPU time (user + system, in clock ticks) of the server and all its threads.
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$SERVER_PID/stat"; }

# run_load OPTIONS...: one inflight_load run; prints its result line.
run_load() {
    local line
    line=$("$LOAD" --url "$URL" --connections "$CONNECTIONS" "$@" 2>"$WORK/err" | grep '^result') || {
        echo "receive_send_slices: inflight_load $* failed:" >&2
        cat "$WORK/err" >&2
        exit 1
    }
    echo "$line"
}

field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<<"$2"; }

# fill PROTOCOL COUNT: SendMessageBatch(10) of COUNT messages into the protocol's receive queue.
fill() {
    local line
    line=$(run_load --mode fill --protocol json --queue "slices-receive-$1" \
        --fill-seconds 600 --fill-messages "$2")
    [[ "$(field errors "$line")" == 0 ]] || {
        echo "receive_send_slices: the fill failed: $line" >&2
        exit 1
    }
}

echo "receive_send_slices: $ROUNDS round(s) of ${SLICE_SECONDS} s slices, backlog $BACKLOG," \
    "$CONNECTIONS connections, $(nproc) CPU(s), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
fill json "$BACKLOG"
fill query "$BACKLOG"

PLAN=("send json" "receive json" "send query" "receive query")
for round in $(seq "$ROUNDS"); do
    for i in 0 1 2 3; do
        read -r mode protocol <<<"${PLAN[$(((i + round - 1) % 4))]}"
        options=(--mode "$mode" --protocol "$protocol" --seconds "$SLICE_SECONDS" --warmup 0.5)
        if [[ "$mode" == send ]]; then
            options+=(--queue "slices-send-$protocol")
        else
            options+=(--queue "slices-receive-$protocol" --fill-seconds 0)
        fi
        before=$(cpu_ticks)
        line=$(run_load "${options[@]}")
        after=$(cpu_ticks)
        echo "$line round=$round cpu_ticks=$((after - before))" | tee -a "$WORK/slices" >&2
        if [[ "$mode" == receive ]]; then
            # Top the queue up by what the slice took (its warm-up included), not measured.
            taken=$(field messages "$line")
            warm=$(awk -v m="$taken" -v s="$(field seconds "$line")" 'BEGIN { printf "%d", m / s * 0.6 }')
            fill "$protocol" $((taken + warm))
        fi
    done
done

/usr/bin/env python3 - "$WORK/slices" "$(getconf CLK_TCK)" <<'PY'
import statistics, sys
slices, tick = sys.argv[1], float(sys.argv[2])
rows = []
for line in open(slices):
    rows.append(dict(f.split("=", 1) for f in line.split()[1:] if "=" in f))

def of(mode, protocol):
    return sorted((r for r in rows if r["mode"] == mode and r["protocol"] == protocol),
                  key=lambda r: int(r["round"]))

def count(r):  # requests for send, messages for receive
    return float(r["requests"] if r["mode"] == "send" else r["messages"])

def rate(rs):
    return sum(count(r) for r in rs) / sum(float(r["seconds"]) for r in rs)

def server_us(rs):
    # CPU over the whole slice, warm-up included (0.5 s at the slice's rate).
    return statistics.median(float(r["cpu_ticks"]) / tick * 1e6
                             / (count(r) / float(r["seconds"]) * (float(r["seconds"]) + 0.5))
                             for r in rs)

print("ReceiveMessage(10) + DeleteMessageBatch messages/s / SendMessage requests/s, slices in turn"
      " (target: at least 3):")
for protocol in ("json", "query"):
    s, r = of("send", protocol), of("receive", protocol)
    per_round = [float(b["rate"]) / float(a["rate"]) for a, b in zip(s, r)]
    print(f"  {protocol:5} {rate(r):>9,.0f} msg/s / {rate(s):>8,.0f} req/s = {rate(r) / rate(s):.2f}x"
          f" (median of rounds {statistics.median(per_round):.2f}x; rounds "
          f"{', '.join(f'{x:.2f}x' for x in per_round)}); server CPU {server_us(s):.2f} us a request,"
          f" {server_us(r):.2f} us a message")
PY
