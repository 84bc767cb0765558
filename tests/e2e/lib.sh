# Shared by the shell end-to-end tests: start `inflight --headless` on a free port, assertions.
# Source it; needs INFLIGHT_BIN (set by ctest, see tests/e2e/CMakeLists.txt).

set -euo pipefail

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
E2E_TMP=$(mktemp -d)
INFLIGHT_PID=
INFLIGHT_URL=
E2E_FAILURES=0

e2e_cleanup() {
    if [[ -n "$INFLIGHT_PID" ]] && kill -0 "$INFLIGHT_PID" 2>/dev/null; then
        kill -TERM "$INFLIGHT_PID" 2>/dev/null || true
        wait "$INFLIGHT_PID" 2>/dev/null || true
    fi
    rm -rf "$E2E_TMP"
}
trap e2e_cleanup EXIT

# inflight_start [extra options]: runs the endpoint on 127.0.0.1 with a port the kernel picks
# (so parallel tests never collide) and reads the address from its first line.
inflight_start() {
    : "${INFLIGHT_BIN:?INFLIGHT_BIN must point at build/app/inflight}"
    : >"$E2E_TMP/inflight.out"
    # INFLIGHT_HEADLESS_OPTIONS (e.g. --socket-thread) applies to every test's endpoint.
    local -a options
    read -ra options <<<"${INFLIGHT_HEADLESS_OPTIONS:-}"
    "$INFLIGHT_BIN" --headless --listen 127.0.0.1:0 ${options[@]+"${options[@]}"} "$@" \
        >"$E2E_TMP/inflight.out" 2>&1 &
    INFLIGHT_PID=$!
    local i
    for ((i = 0; i < 200; ++i)); do
        INFLIGHT_URL=$(sed -n 's/^Inflight endpoint listening on \(http:[^ ]*\)$/\1/p' \
            "$E2E_TMP/inflight.out")
        [[ -n "$INFLIGHT_URL" ]] && return 0
        kill -0 "$INFLIGHT_PID" 2>/dev/null || break
        sleep 0.05
    done
    echo "inflight did not start:" >&2
    cat "$E2E_TMP/inflight.out" >&2
    exit 1
}

# Stops the endpoint with SIGTERM and checks that it exits cleanly.
inflight_stop() {
    kill -TERM "$INFLIGHT_PID"
    local status=0
    wait "$INFLIGHT_PID" || status=$?
    INFLIGHT_PID=
    expect_eq "$status" 0 "inflight exits cleanly on SIGTERM"
}

pass() { printf 'ok   %s\n' "$1"; }
fail() {
    printf 'FAIL %s\n' "$1"
    E2E_FAILURES=$((E2E_FAILURES + 1))
}

# expect_eq ACTUAL EXPECTED LABEL
expect_eq() {
    if [[ "$1" == "$2" ]]; then
        pass "$3"
    else
        fail "$3: expected [$2], got [$1]"
    fi
}

# expect_match ACTUAL REGEX LABEL
expect_match() {
    if [[ "$1" =~ $2 ]]; then
        pass "$3"
    else
        fail "$3: [$1] does not match /$2/"
    fi
}

# Exits with the test's result.
e2e_finish() {
    if ((E2E_FAILURES > 0)); then
        echo "$E2E_FAILURES check(s) failed" >&2
        exit 1
    fi
    echo "all checks passed"
}
