#!/usr/bin/env bash
# The one test command: packages, build, format check, then every test through ctest.
# Benchmarks are built but are not tests; run them from build/tests/bench/ by hand.
# A format failure does not stop the tests from running, but the script still fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-2}
export BUILD_DIR JOBS

bash scripts/build.sh

format_status=0
bash scripts/format.sh --check || format_status=$?

# The JS SDK of the end-to-end tests, exactly as package-lock.json pins it (skipped when
# node_modules already matches the lock).
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    npm ci --no-audit --no-fund --loglevel=error
fi

# Qt tests need no display.
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
# A run that finds no test is a broken build, not a pass.
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" --label-exclude bench --no-tests=error

if ((format_status != 0)); then
    echo "test: tests ran, but the format check failed (see above): run bash scripts/format.sh" >&2
    exit "$format_status"
fi
