#!/usr/bin/env bash
# The sanitizer suite: the engine, sim, control, protocol, store and server tests and the end-to-end
# clients against an ASan + UBSan build of `inflight` (CMakePresets.json: asan, gcc, build-asan/).
# Configures once, builds only what those tests need (not the window's tests, not benchmarks),
# then runs each of those test executables whole, and ctest on the label e2e (but for two client
# suites whose signed twins run). Any sanitizer report
# fails the test it happens in: UBSan halts, ASan aborts, LeakSanitizer reports leaks at exit
# (only Qt's and fontconfig's own would be suppressed: scripts/lsan-suppressions.txt), and every
# report is also kept in BUILD_DIR/sanitizer-reports/ and printed at the end.
# BUILD_DIR overrides the build folder (default build-asan), JOBS the parallelism (default 2);
# extra arguments go to ctest instead, on all those labels (e.g. -R e2e_boto3).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

. scripts/deps.sh
inflight_deps

BUILD_DIR=${BUILD_DIR:-build-asan}
JOBS=${JOBS:-2}
LABELS='engine|sim|control|traffic|protocol|store|server|e2e'
start=$SECONDS

if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
    cmake --preset asan -B "$BUILD_DIR"
fi

# The executables of the tests with those labels: every <area>_<topic>_test of tests/engine,
# tests/sim, tests/control, tests/traffic, tests/store, tests/protocol and tests/server (tests/CMakeLists.txt
# names them so), and the app the e2e tests start. Nothing else (the window's tests, the screenshot tool) is built.
mapfile -t tests < <(ninja -C "$BUILD_DIR" -t targets all |
    sed -n -E 's/^((engine|sim|control|traffic|store|protocol|server)_[A-Za-z0-9_]+_test): phony$/\1/p' | sort -u)
if ((${#tests[@]} == 0)); then
    echo "sanitize: no test targets found in $BUILD_DIR: a broken build, not a pass" >&2
    exit 1
fi
targets=("${tests[@]}" inflight)
echo "sanitize: building ${#targets[@]} targets in $BUILD_DIR: ${targets[*]}"
cmake --build "$BUILD_DIR" -j "$JOBS" --target "${targets[@]}"
built=$SECONDS

# The JS SDK of the end-to-end tests, as scripts/test.sh installs it (when run on its own).
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    npm ci --no-audit --no-fund --loglevel=error
fi

# Every report also goes to a file of its own (log_path, one per process), so a report from a
# process whose end no test looks at (a server killed by its test, a helper) still fails the run.
LOGS="$PWD/$BUILD_DIR/sanitizer-reports"
rm -rf "$LOGS"
mkdir -p "$LOGS"
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:log_path=$LOGS/asan:log_exe_name=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:log_path=$LOGS/ubsan:log_exe_name=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0}
# The queue invariants are checked by the main ctest run; here the same tests look for memory
# errors, and the check (a pass over every message per call) would add minutes at -O0.
export INFLIGHT_INVARIANTS=0
# The sanitizer's allocator, not mimalloc, in every process the tests start (the asan build does
# not link mimalloc at all; this keeps a stray MIMALLOC_* setting from mattering).
unset MIMALLOC_VERBOSE

status=0
if (($# > 0)); then
    # Tests asked for by name (extra arguments) run as asked, one process per test case.
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" -L "$LABELS" --no-tests=error \
        "$@" || status=$?
else
    # Each test executable runs whole, in one process: ctest runs a process per test case (1,800
    # of them), and an ASan process's start-up made that about half of this stage's test time.
    # From the folder ctest runs them in; a failing executable's output is printed, and fails
    # the stage.
    export BUILD_DIR
    printf '%s\n' "${tests[@]}" | xargs -P "$JOBS" -I{} sh -c '
        out=$(cd "$BUILD_DIR/tests" && timeout 900 "./$1" --gtest_brief=1 2>&1) && exit 0
        printf "==== %s failed:\n%s\n" "$1" "$out" >&2
        exit 1' sh {} || status=$?
    echo "sanitize: ${#tests[@]} test executables run, $( ((status == 0)) && echo all passed || echo "some FAILED")"
    # The e2e clients through ctest, as the main run starts them. The unsigned AWS CLI and boto3
    # suites are left to the main run: their signed twins (e2e_*_signed) make the same calls,
    # through the signature check as well.
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" -L e2e -E '^e2e_(aws_cli|boto3)$' \
        --no-tests=error || status=$?
fi

mapfile -t reports < <(find "$LOGS" -type f | sort)
for report in "${reports[@]}"; do
    echo "==== sanitizer report: $report" >&2
    head -n 200 "$report" >&2
done
if ((${#reports[@]} > 0)); then
    echo "sanitize: ${#reports[@]} sanitizer report(s) (above, and in $LOGS)" >&2
    status=1
fi
echo "sanitize: build $((built - start)) s, tests $((SECONDS - built)) s"
exit "$status"
