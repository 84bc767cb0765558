#!/usr/bin/env bash
# Installs missing packages, configures (once) and builds everything into build/.
# BUILD_DIR overrides the build folder; JOBS the parallelism (default 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

. scripts/deps.sh
inflight_deps

BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-2}

if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$BUILD_DIR" -j "$JOBS" "$@"
