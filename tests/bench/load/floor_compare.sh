#!/usr/bin/env bash
# `inflight --headless` against the floor (floor_server: a do-nothing HTTP server that answers
# every request with a fixed SendMessage-sized answer) under the same load, in one run.
#
#   bash tests/bench/load/floor_compare.sh      # build dir: build/ (BUILD_DIR overrides)
#
# ROUNDS (6) rounds; each starts a fresh server per measurement on a free 127.0.0.1 port
# (`inflight --headless --in-memory`, or floor_server) and runs, after WARMUP (1 s, not counted),
# LOAD_SECONDS (6) of:
#   - SendMessage over JSON, inflight_load, CONNECTIONS (32) keep-alive connections, 100-byte
#     bodies: against the floor and against Inflight;
#   - the same SendMessage with wrk (CONNECTIONS connections, 1 thread, sendmessage.lua), if wrk is
#     installed (Debian: apt-get install wrk): against both;
#   - against Inflight only: SendMessage over Query, and ReceiveMessage(10) + DeleteMessageBatch
#     over JSON and over Query (after FILL_SECONDS (10) of SendMessageBatch filling, at most
#     FILL_MESSAGES (2,000,000), not measured).
# Even rounds run the list backwards, so that each pair sees the machine in both orders. Around
# each measured load the server's CPU time (user + system, /proc/PID/stat) is sampled, and the
# load generator's own CPU time with it.
#
# Prints the medians, Inflight / floor per load tool (issue 15: at least 85%), server and client
# CPU per request, receive messages/s / send requests/s per protocol (at least 3) and Query's cost
# per request against JSON's (at most 1.5). Binaries: INFLIGHT, LOAD, FLOOR (default: under
# BUILD_DIR), WRK (wrk).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

BUILD_DIR=${BUILD_DIR:-build-bench}
LOAD_SECONDS=${LOAD_SECONDS:-6}
WARMUP=${WARMUP:-1}
ROUNDS=${ROUNDS:-6}
CONNECTIONS=${CONNECTIONS:-32}
FILL_SECONDS=${FILL_SECONDS:-10}
FILL_MESSAGES=${FILL_MESSAGES:-2000000}
INFLIGHT=${INFLIGHT:-$BUILD_DIR/app/inflight}
LOAD=${LOAD:-$BUILD_DIR/tests/bench/load/inflight_load}
FLOOR=${FLOOR:-$BUILD_DIR/tests/bench/load/floor_server}
WRK=${WRK:-wrk}
LUA=tests/bench/load/sendmessage.lua
for binary in "$INFLIGHT" "$LOAD" "$FLOOR"; do
    [[ -x "$binary" ]] || {
        echo "floor_compare: $binary is missing; build with: cmake --preset bench && cmake --build $BUILD_DIR --target inflight inflight_load floor_server" >&2
        exit 1
    }
done
if command -v "$WRK" >/dev/null; then
    HAVE_WRK=1
else
    HAVE_WRK=0
    echo "floor_compare: wrk is not installed, measuring with inflight_load only" \
        "(Debian/Ubuntu: sudo apt-get install wrk)" >&2
fi
# wrk takes whole seconds.
WRK_SECONDS=$(printf '%.0f' "$LOAD_SECONDS")
WRK_WARMUP=$(printf '%.0f' "$WARMUP")

WORK=$(mktemp -d)
SERVER_PID=
LOAD_PID=
cleanup() {
    for pid in "$LOAD_PID" "$SERVER_PID"; do
        if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

# start_server NAME: starts it on a free 127.0.0.1 port; sets SERVER_PID and SERVER_URL.
start_server() {
    : >"$WORK/server.out"
    case "$1" in
    inflight) "$INFLIGHT" --headless --in-memory --listen 127.0.0.1:0 >"$WORK/server.out" 2>&1 & ;;
    floor) "$FLOOR" --listen 127.0.0.1:0 >"$WORK/server.out" 2>&1 & ;;
    esac
    SERVER_PID=$!
    SERVER_URL=
    for _ in $(seq 200); do
        SERVER_URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$WORK/server.out" | head -1 || true)
        [[ -n "$SERVER_URL" ]] && return 0
        sleep 0.05
    done
    echo "floor_compare: $1 did not start:" >&2
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

# bash's `time` of the last load run, as "user+sys" seconds (TIMEFORMAT below).
client_seconds() { awk '{ print $1 + $2 }' "$WORK/time"; }

# create_queue NAME: CreateQueue over JSON on SERVER_URL; prints the queue's URL.
create_queue() {
    python3 - "$SERVER_URL" "$1" <<'PY'
import http.client, json, sys, urllib.parse
url = urllib.parse.urlsplit(sys.argv[1])
connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
connection.request("POST", "/", json.dumps({"QueueName": sys.argv[2]}),
                   {"Content-Type": "application/x-amz-json-1.0",
                    "X-Amz-Target": "AmazonSQS.CreateQueue"})
reply = connection.getresponse()
body = reply.read()
if reply.status != 200:
    sys.exit(f"floor_compare: CreateQueue answered {reply.status}: {body[:200]!r}")
print(json.loads(body)["QueueUrl"])
PY
}

# run_load MODE PROTOCOL: one inflight_load run against SERVER_URL; sets LINE, TICKS (server CPU
# from the end of the fill, if any, to the end) and CLIENT (the load generator's CPU seconds, whole
# run, send mode only).
run_load() {
    local mode=$1 protocol=$2 before after
    local args=(--url "$SERVER_URL" --mode "$mode" --protocol "$protocol"
        --connections "$CONNECTIONS" --seconds "$LOAD_SECONDS" --warmup "$WARMUP")
    : >"$WORK/load.err"
    if [[ "$mode" == send ]]; then
        local TIMEFORMAT='%U %S'
        before=$(cpu_ticks "$SERVER_PID")
        if ! { time "$LOAD" "${args[@]}" >"$WORK/load.out" 2>"$WORK/load.err"; } 2>"$WORK/time"; then
            echo "floor_compare: inflight_load failed:" >&2
            cat "$WORK/load.out" "$WORK/load.err" >&2
            exit 1
        fi
        after=$(cpu_ticks "$SERVER_PID")
        CLIENT=$(client_seconds)
    else
        # The fill is not measured: sample the server's CPU once inflight_load says it is done.
        "$LOAD" "${args[@]}" --fill-seconds "$FILL_SECONDS" --fill-messages "$FILL_MESSAGES" \
            >"$WORK/load.out" 2>"$WORK/load.err" &
        LOAD_PID=$!
        while kill -0 "$LOAD_PID" 2>/dev/null && ! grep -q '^inflight_load: filled' "$WORK/load.err"; do
            sleep 0.02
        done
        before=$(cpu_ticks "$SERVER_PID")
        if ! wait "$LOAD_PID"; then
            LOAD_PID=
            echo "floor_compare: inflight_load failed:" >&2
            cat "$WORK/load.out" "$WORK/load.err" >&2
            exit 1
        fi
        LOAD_PID=
        after=$(cpu_ticks "$SERVER_PID")
        CLIENT=-
        grep -v '^inflight_load: filled' "$WORK/load.err" >&2 || true
    fi
    TICKS=$((after - before))
    LINE=$(grep '^result ' "$WORK/load.out")
}

# run_wrk: SendMessage over JSON with wrk against SERVER_URL (a warm-up run first, not counted);
# sets LINE, TICKS and CLIENT like run_load, for the measured run alone.
run_wrk() {
    local queue before after TIMEFORMAT='%U %S'
    queue=$(create_queue wrk-send)
    if ((WRK_WARMUP > 0)); then
        QUEUE_URL=$queue "$WRK" -t1 -c"$CONNECTIONS" -d"${WRK_WARMUP}s" -s "$LUA" \
            "$SERVER_URL/" >/dev/null
    fi
    before=$(cpu_ticks "$SERVER_PID")
    if ! { time QUEUE_URL=$queue "$WRK" -t1 -c"$CONNECTIONS" -d"${WRK_SECONDS}s" --latency \
        -s "$LUA" "$SERVER_URL/" >"$WORK/wrk.out" 2>&1; } 2>"$WORK/time"; then
        echo "floor_compare: wrk failed:" >&2
        cat "$WORK/wrk.out" >&2
        exit 1
    fi
    after=$(cpu_ticks "$SERVER_PID")
    CLIENT=$(client_seconds)
    TICKS=$((after - before))
    # wrk's report, as inflight_load's result line (latencies in ms; errors: non-2xx + socket).
    LINE=$(awk -v connections="$CONNECTIONS" '
        function ms(v) { return v ~ /us$/ ? v / 1000 : v ~ /ms$/ ? v + 0 : v * 1000 }
        / requests in / { requests = $1; seconds = $4; sub(/s,$/, "", seconds) }
        /^Requests\/sec:/ { rate = $2 }
        /^ +50% / { p50 = ms($2) }
        /^ +99% / { p99 = ms($2) }
        /Non-2xx or 3xx responses:/ { errors += $NF }
        /Socket errors:/ { gsub(/,/, ""); errors += $4 + $6 + $8 + $10 }
        END {
            printf "result label=- mode=send protocol=json connections=%d seconds=%s requests=%d " \
                "messages=%d errors=%d rate=%.0f unit=req/s p50_ms=%.3f p99_ms=%.3f\n",
                connections, seconds, requests, requests - errors, errors, rate, p50, p99
        }' "$WORK/wrk.out")
}

# measure SERVER TOOL MODE PROTOCOL ROUND: a fresh server, one measured load, a line of results.
measure() {
    local server=$1 tool=$2 mode=$3 protocol=$4 round=$5
    start_server "$server"
    if [[ "$tool" == wrk ]]; then run_wrk; else run_load "$mode" "$protocol"; fi
    stop_server
    echo "${LINE/label=-/label=$server} tool=$tool cpu_ticks=$TICKS client_s=$CLIENT round=$round" |
        tee -a "$WORK/results" >&2
}

PLAN=("floor load send json" "inflight load send json")
if ((HAVE_WRK)); then
    PLAN+=("floor wrk send json" "inflight wrk send json")
fi
PLAN+=("inflight load send query" "inflight load receive json" "inflight load receive query")

echo "floor_compare: $ROUNDS round(s), ${LOAD_SECONDS} s per load after ${WARMUP} s warm-up," \
    "$CONNECTIONS connections, $(nproc) CPU(s), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for round in $(seq "$ROUNDS"); do
    order=("${PLAN[@]}")
    if ((round % 2 == 0)); then
        order=()
        for ((i = ${#PLAN[@]} - 1; i >= 0; i--)); do order+=("${PLAN[i]}"); done
    fi
    for step in "${order[@]}"; do
        # shellcheck disable=SC2086 # the step's words are the arguments
        measure $step "$round"
    done
done

/usr/bin/env python3 - "$WORK/results" "$WARMUP" "$(getconf CLK_TCK)" "$(nproc)" <<'PY'
import statistics, sys
results, warmup, tick, cpus = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
rows = {}
for line in open(results):
    fields = dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)
    rows.setdefault((fields["label"], fields["tool"], fields["mode"], fields["protocol"]),
                    []).append(fields)

def median(values):
    return statistics.median(values) if values else float("nan")

def rates(key):
    return [float(r["rate"]) for r in sorted(rows.get(key, []), key=lambda r: int(r["round"]))]

def server_us(r):
    # Per request (send) or message (receive). inflight_load counts only the measured requests
    # but the CPU time includes its warm-up: count the warm-up's at the same rate. wrk's CPU time
    # is its measured run alone.
    counted = float(r["seconds"]) + (warmup if r["tool"] == "load" else 0)
    return float(r["cpu_ticks"]) / tick * 1e6 / (float(r["rate"]) * counted)

def client_us(r):
    if r["client_s"] == "-":
        return None
    counted = float(r["seconds"]) + (warmup if r["tool"] == "load" else 0)
    return float(r["client_s"]) * 1e6 / (float(r["rate"]) * counted)

names = {"send": "SendMessage (req/s)", "receive": "Receive(10)+DeleteBatch (msg/s)"}
print(f"{'server':9} {'tool':5} {'protocol':8} {'mode':31} {'rate':>9} {'p50 ms':>7} {'p99 ms':>7}"
      f" {'server us':>9} {'client us':>9}  rounds")
order = {"floor": 0, "inflight": 1}
for key in sorted(rows, key=lambda k: (k[2] != "send", k[3], k[1], order[k[0]])):
    server, tool, mode, protocol = key
    rs = rows[key]
    client = [c for c in (client_us(r) for r in rs) if c is not None]
    client_text = f"{median(client):>9.2f}" if client else f"{'-':>9}"
    print(f"{server:9} {tool:5} {protocol:8} {names[mode]:31} {median(rates(key)):>9.0f}"
          f" {median([float(r['p50_ms']) for r in rs]):>7.2f}"
          f" {median([float(r['p99_ms']) for r in rs]):>7.2f}"
          f" {median([server_us(r) for r in rs]):>9.2f} {client_text}"
          f"  {', '.join(f'{x:,.0f}' for x in rates(key))}")
print(f"\n(server us, client us: CPU time per request or message, medians; {cpus} CPU(s) give "
      f"{cpus} x 1e6 / rate us of CPU per request in all)")

print("\nSendMessage over JSON, Inflight against the floor (target: at least 85%):")
for tool in ("load", "wrk"):
    a, b = ("inflight", tool, "send", "json"), ("floor", tool, "send", "json")
    if a not in rows or b not in rows:
        continue
    ra, rb = rates(a), rates(b)
    per_round = [x / y for x, y in zip(ra, rb)]
    ua = median([server_us(r) for r in rows[a]])
    ub = median([server_us(r) for r in rows[b]])
    name = "inflight_load" if tool == "load" else "wrk"
    print(f"  {name:13} {median(ra):>9,.0f} vs {median(rb):>9,.0f} req/s:"
          f" {100 * median(ra) / median(rb):5.1f}% (rounds: "
          f"{', '.join(f'{100 * x:.0f}%' for x in per_round)}); server CPU per request"
          f" {ua:.2f} us vs {ub:.2f} us (Inflight's own work: {ua - ub:.2f} us)")

print("\nReceiveMessage(10) + DeleteMessageBatch messages/s / SendMessage requests/s, Inflight,"
      " inflight_load (target: at least 3):")
for protocol in ("json", "query"):
    s, r = ("inflight", "load", "send", protocol), ("inflight", "load", "receive", protocol)
    if s in rows and r in rows:
        per_round = [x / y for x, y in zip(rates(r), rates(s))]
        print(f"  {protocol:5} {median(rates(r)):>9,.0f} msg/s / {median(rates(s)):>9,.0f} req/s ="
              f" {median(rates(r)) / median(rates(s)):.2f}x (rounds: "
              f"{', '.join(f'{x:.2f}x' for x in per_round)})")

j, q = ("inflight", "load", "send", "json"), ("inflight", "load", "send", "query")
if j in rows and q in rows:
    per_round = [x / y for x, y in zip(rates(j), rates(q))]
    uj = median([server_us(r) for r in rows[j]])
    uq = median([server_us(r) for r in rows[q]])
    print(f"\nQuery's cost per SendMessage against JSON's (target: at most 1.5x): "
          f"{median(rates(j)) / median(rates(q)):.2f}x by req/s (rounds: "
          f"{', '.join(f'{x:.2f}x' for x in per_round)}); {uq / uj:.2f}x by server CPU"
          f" ({uq:.2f} us vs {uj:.2f} us)")
PY
