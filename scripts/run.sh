#!/usr/bin/env bash
# Builds Inflight (installing missing packages first) and runs it; arguments go to the app.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BUILD_DIR=${BUILD_DIR:-build}
export BUILD_DIR

bash scripts/build.sh --target inflight
exec "$BUILD_DIR/app/inflight" "$@"
