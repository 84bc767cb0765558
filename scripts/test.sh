#!/usr/bin/env bash
# The one test command: packages, build, format check, every test through ctest, then the
# sanitizer suite (scripts/sanitize.sh: ASan + UBSan build in build-asan/) and a bounded fuzzing
# run (scripts/fuzz.sh: libFuzzer targets in build-fuzz/). Each build goes through ccache when it
# is installed (scripts/deps.sh installs it), so after one run the next compiles only what changed.
# Benchmarks are not built here: `cmake --preset bench && cmake --build --preset bench`.
# A failing stage does not stop the others from running, but the script still fails.
# Quick local runs: INFLIGHT_SANITIZE=0 skips the sanitizer suite, INFLIGHT_FUZZ_SECONDS=0 the
# fuzzing (CI runs both; INFLIGHT_FUZZ_SECONDS sets the seconds per fuzz target, default 30).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-2}
export BUILD_DIR JOBS

stage_start=$SECONDS
timings=()
timed() { # timed NAME: records the seconds since the last stage ended
    timings+=("$1 $((SECONDS - stage_start)) s")
    stage_start=$SECONDS
}

bash scripts/build.sh
timed build

format_status=0
bash scripts/format.sh --check || format_status=$?
timed format

# The JS SDK of the end-to-end tests, exactly as package-lock.json pins it (skipped when
# node_modules already matches the lock).
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    npm ci --no-audit --no-fund --loglevel=error
fi

# Qt tests need no display.
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
# A run that finds no test is a broken build, not a pass.
ctest_status=0
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" --no-tests=error || ctest_status=$?
timed ctest

# The sanitizer suite and the fuzzers, each in its own build folder.
sanitize_status=skipped
if [[ "${INFLIGHT_SANITIZE:-1}" != 0 ]]; then
    sanitize_status=0
    BUILD_DIR=build-asan bash scripts/sanitize.sh || sanitize_status=$?
    timed sanitize
fi
fuzz_status=skipped
if [[ "${INFLIGHT_FUZZ_SECONDS:-30}" != 0 ]]; then
    fuzz_status=0
    BUILD_DIR=build-fuzz bash scripts/fuzz.sh "${INFLIGHT_FUZZ_SECONDS:-30}" || fuzz_status=$?
    timed fuzz
fi

if ((format_status != 0)); then
    echo "test: the format check failed (see above): run bash scripts/format.sh" >&2
fi
passed=0 failed=0 skipped=0 summary=()
for stage in ctest:$ctest_status format:$format_status sanitize:$sanitize_status fuzz:$fuzz_status; do
    name=${stage%%:*} status=${stage#*:}
    if [[ "$status" == skipped ]]; then
        skipped=$((skipped + 1)) summary+=("$name skipped")
    elif [[ "$status" == 0 ]]; then
        passed=$((passed + 1)) summary+=("$name passed")
    else
        failed=$((failed + 1)) summary+=("$name FAILED (exit $status)")
    fi
done
printf -v line '%s; ' "${summary[@]}"
echo "test: ${line%; }"
printf -v line '%s, ' "${timings[@]}"
echo "test: took ${line%, } (${SECONDS} s in all)"
echo "stages: $passed passed, $failed failed, $skipped skipped"
if ((failed > 0)); then
    exit 1
fi
