#!/usr/bin/env bash
# The sanitizer suite: the tests of the libraries that read what clients and files send -- text
# (base64), engine (message and attribute validation), config (configuration files), sim
# (scenarios and lessons), store (workspaces, imports), protocol (the SQS and OCI codecs, SigV4,
# credentials files), traffic (records of requests) and server (the HTTP parser and server) --
# built with ASan + UBSan (CMakePresets.json: asan, gcc, build-asan/). Configures once, builds only
# those test executables (not the window, not the app), then runs each whole. The fuzz targets
# (scripts/fuzz.sh) feed the same decoders with generated input under ASan too. Any sanitizer report
# fails the test it happens in: UBSan halts, ASan aborts, LeakSanitizer reports leaks at exit
# (only Qt's and fontconfig's own would be suppressed: scripts/lsan-suppressions.txt), and every
# report is also kept in BUILD_DIR/sanitizer-reports/ and printed at the end.
# BUILD_DIR overrides the build folder (default build-asan), JOBS the parallelism (default 2);
# extra arguments go to ctest, on those labels (e.g. -R protocol_sigv4).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

. scripts/deps.sh
inflight_deps

BUILD_DIR=${BUILD_DIR:-build-asan}
JOBS=${JOBS:-2}
AREAS='text|engine|sim|config|traffic|store|protocol|server'
start=$SECONDS

if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
    cmake --preset asan -B "$BUILD_DIR"
fi

# The executables of those areas' tests: every <area>_<topic>_test of tests/<area>
# (tests/CMakeLists.txt names them so). Nothing else is built.
mapfile -t tests < <(ninja -C "$BUILD_DIR" -t targets all |
    sed -n -E "s/^(($AREAS)_[A-Za-z0-9_]+_test): phony\$/\1/p" | sort -u)
if ((${#tests[@]} == 0)); then
    echo "sanitize: no test targets found in $BUILD_DIR: a broken build, not a pass" >&2
    exit 1
fi
targets=("${tests[@]}")
echo "sanitize: building ${#targets[@]} targets in $BUILD_DIR: ${targets[*]}"
cmake --build "$BUILD_DIR" -j "$JOBS" --target "${targets[@]}"
built=$SECONDS

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

# Through ctest, which runs each test executable whole (tests/CMakeLists.txt) with the
# environment the main run gives it; extra arguments go to ctest (e.g. -R protocol_sigv4).
status=0
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" -L "^($AREAS)\$" --no-tests=error "$@" ||
    status=$?

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
