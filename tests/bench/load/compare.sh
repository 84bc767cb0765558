#!/usr/bin/env bash
# Inflight and fauxqs side by side under the same load, on 127.0.0.1 only.
#
#   bash tests/bench/load/compare.sh            # build dir: build/ (BUILD_DIR overrides)
#
# For each server in turn: start it on a free port, run inflight_load (32 keep-alive connections,
# 100-byte bodies) for LOAD_SECONDS (10) per mode — SendMessage requests/s, then ReceiveMessage(10) +
# DeleteMessageBatch messages/s (after FILL_SECONDS of SendMessageBatch filling, not measured) —
# over the JSON protocol, and for Inflight also over Query (fauxqs speaks JSON only). ROUNDS
# rounds alternate the servers so that both see the same machine; the table shows each figure's
# median, the servers' CPU time per SendMessage, and the ratios. Also: WARMUP (1 s, not counted),
# FILL_MESSAGES (at most this many filled; 2,000,000), CONNECTIONS (32), BUILD_DIR,
# FAUXQS_VERSION.
#
# Then, if inflight_window_load was built, the same two JSON modes once more against the real
# window with its endpoint, measuring how late the window's event loop runs meanwhile.
#
# fauxqs (npm, a 1.9.x version that runs on Node 20) is installed once into
# $BUILD_DIR/fauxqs-$FAUXQS_VERSION, not into the repository. Needs node and npm.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

BUILD_DIR=${BUILD_DIR:-build-bench}
SECONDS_PER_MODE=${LOAD_SECONDS:-10}
FILL_SECONDS=${FILL_SECONDS:-10}
FILL_MESSAGES=${FILL_MESSAGES:-2000000}
WARMUP=${WARMUP:-1}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-32}
FAUXQS_VERSION=${FAUXQS_VERSION:-1.9.2}

INFLIGHT="$BUILD_DIR/app/inflight"
LOAD="$BUILD_DIR/tests/bench/load/inflight_load"
for binary in "$INFLIGHT" "$LOAD"; do
    [[ -x "$binary" ]] || {
        echo "compare: $binary is missing; build with: cmake --preset bench && cmake --build $BUILD_DIR --target inflight inflight_load" >&2
        exit 1
    }
done

FAUXQS_DIR="$BUILD_DIR/fauxqs-$FAUXQS_VERSION"
if [[ ! -f "$FAUXQS_DIR/node_modules/fauxqs/package.json" ]]; then
    echo "compare: installing fauxqs@$FAUXQS_VERSION into $FAUXQS_DIR" >&2
    mkdir -p "$FAUXQS_DIR"
    npm install --prefix "$FAUXQS_DIR" --no-save --no-audit --no-fund --loglevel=error \
        "fauxqs@$FAUXQS_VERSION" >&2
fi

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

# start_server NAME: starts it on a free 127.0.0.1 port; sets SERVER_PID and SERVER_URL.
start_server() {
    : >"$WORK/server.out"
    case "$1" in
    inflight) "$INFLIGHT" --headless --listen 127.0.0.1:0 >"$WORK/server.out" 2>&1 & ;;
    fauxqs) node tests/bench/load/fauxqs_local.mjs "$FAUXQS_DIR" 0 >"$WORK/server.out" 2>&1 & ;;
    esac
    SERVER_PID=$!
    SERVER_URL=
    for _ in $(seq 100); do
        SERVER_URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/server.out" | head -1 || true)
        [[ -n "$SERVER_URL" ]] && return 0
        sleep 0.1
    done
    echo "compare: $1 did not start:" >&2
    cat "$WORK/server.out" >&2
    exit 1
}

stop_server() {
    kill "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
}

# CPU time (user + system, in clock ticks) of a process and all its threads.
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }

# measure SERVER MODE PROTOCOL ROUND: one inflight_load run; appends a line to results.
measure() {
    local server=$1 mode=$2 protocol=$3 round=$4 before after line
    before=$(cpu_ticks "$SERVER_PID")
    line=$("$LOAD" --url "$SERVER_URL" --mode "$mode" --protocol "$protocol" \
        --connections "$CONNECTIONS" --seconds "$SECONDS_PER_MODE" --warmup "$WARMUP" \
        --fill-seconds "$FILL_SECONDS" --fill-messages "$FILL_MESSAGES" --label "$server")
    after=$(cpu_ticks "$SERVER_PID")
    echo "$line cpu_ticks=$((after - before)) round=$round" | tee -a "$WORK/results" >&2
}

echo "compare: $ROUNDS round(s), ${SECONDS_PER_MODE} s per mode, $CONNECTIONS connections," \
    "$(nproc) CPU(s), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for round in $(seq "$ROUNDS"); do
    for server in inflight fauxqs; do
        start_server "$server"
        measure "$server" send json "$round"
        measure "$server" receive json "$round"
        if [[ "$server" == inflight ]]; then
            measure "$server" send query "$round"
            measure "$server" receive query "$round"
        fi
        stop_server
    done
done

WINDOW_PROBE="$BUILD_DIR/tests/bench/load/inflight_window_load"
if [[ -x "$WINDOW_PROBE" ]]; then
    probe_seconds=$((2 * (SECONDS_PER_MODE + WARMUP) + FILL_SECONDS + 6))
    : >"$WORK/window.out"
    "$WINDOW_PROBE" --seconds "$probe_seconds" >"$WORK/window.out" 2>/dev/null &
    SERVER_PID=$!
    SERVER_URL=
    for _ in $(seq 100); do
        SERVER_URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/window.out" | head -1 || true)
        [[ -n "$SERVER_URL" ]] && break
        sleep 0.1
    done
    sleep 1
    measure window send json 1
    measure window receive json 1
    wait "$SERVER_PID" || true
    SERVER_PID=
    WINDOW_LINE=$(grep '^window ' "$WORK/window.out" || true)
    echo "$WINDOW_LINE" >&2
    echo "$WINDOW_LINE" >"$WORK/window"
fi

# The table: medians over the rounds; CPU time per request (send) or message (receive), with the
# warm-up and (for receive) the fill inside the CPU time, so it is an upper bound.
/usr/bin/env python3 - "$WORK/results" "$WARMUP" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    fields = dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)
    key = (fields["label"], fields["mode"], fields["protocol"])
    rows.setdefault(key, []).append(fields)

def median(key, name):
    return statistics.median(float(r[name]) for r in rows[key])

print(f"{'server':9} {'protocol':8} {'mode':30} {'rate':>10} {'p50 ms':>8} {'p99 ms':>8}")
names = {"send": "SendMessage (req/s)", "receive": "Receive(10)+DeleteBatch (msg/s)"}
order = {"inflight": 0, "fauxqs": 1, "window": 2}
for key in sorted(rows, key=lambda k: (k[1], k[2], order[k[0]])):
    server, mode, protocol = key
    print(f"{server:9} {protocol:8} {names[mode]:30} {median(key, 'rate'):>10.0f}"
          f" {median(key, 'p50_ms'):>8.2f} {median(key, 'p99_ms'):>8.2f}")
print()
warmup = float(sys.argv[2])
for server in ("inflight", "fauxqs"):
    key = (server, "send", "json")
    if key in rows:
        # Ticks are 10 ms; the CPU time includes the warm-up, so count its requests too.
        per = statistics.median(
            float(r["cpu_ticks"]) * 1e4 / (float(r["rate"]) * (float(r["seconds"]) + warmup))
            for r in rows[key])
        print(f"{server:9} server CPU per SendMessage: {per:.1f} us")
print()
import os
window = os.path.join(os.path.dirname(sys.argv[1]), "window")
if os.path.exists(window):
    w = dict(f.split("=", 1) for f in open(window).read().split()[1:] if "=" in f)
    print(f"with the window open (rows 'window' above): its event loop ran late by "
          f"{w['late_p50_ms']} ms (p50), {w['late_p99_ms']} ms (p99), {w['late_max_ms']} ms (max) "
          f"while taking in {w['events']} engine events")
    print()
for mode in ("send", "receive"):
    a, b = ("inflight", mode, "json"), ("fauxqs", mode, "json")
    if a in rows and b in rows:
        print(f"{names[mode]:32} Inflight/fauxqs = {median(a, 'rate') / median(b, 'rate'):.2f}x;"
              f" p99 {median(a, 'p99_ms'):.2f} ms vs {median(b, 'p99_ms'):.2f} ms")
PY
