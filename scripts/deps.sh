#!/usr/bin/env bash
# Installs the Debian 12 packages Inflight needs to build, test and run.
# Source it (`. scripts/deps.sh`, then `inflight_deps`) or run it (`bash scripts/deps.sh`).
# As root it installs what is missing; otherwise it prints the command to run and fails.
# qt6-svg-dev brings the SVG image plugin that shows the icons in resources/.
# node-llhttp ships the llhttp C sources the endpoint (core/server) compiles; libmimalloc-dev the
# allocator the app links (app/CMakeLists.txt says why); libsimdjson-dev the SQS JSON request
# parser (core/protocol/sqs_json_codec.cpp says why). awscli, python3-boto3 and curl are the
# end-to-end tests' clients; nodejs and npm run the JS SDK's test, installed from Debian only when
# there is no `node` at all (a newer Node is fine). python3-pytest runs the README's example test
# suite (tests/e2e/examples). chromium loads hostile pages headless for
# tests/e2e/browser_origin_test.py (no page may change or read the endpoint's queues). clang-14
# and libclang-rt-14-dev (libFuzzer and clang's sanitizer runtimes) build the fuzz targets of
# tests/fuzz (scripts/fuzz.sh); the ASan + UBSan build of scripts/sanitize.sh is gcc's, whose
# runtimes (libasan8, libubsan1) come with build-essential. lld links every executable (about 6x
# faster than GNU ld; CMakeLists.txt). ccache keeps what each build compiled, so the next build of
# the same sources (a fresh clone, the sanitizer's and fuzzers' builds) compiles only what changed.

INFLIGHT_PACKAGES=(
    build-essential cmake ninja-build pkg-config lld ccache
    libssl-dev nlohmann-json3-dev libsqlite3-dev
    libgtest-dev libgmock-dev googletest libbenchmark-dev
    qt6-base-dev qt6-charts-dev qt6-httpserver-dev qt6-svg-dev qcoro-qt6-dev libgl1-mesa-dev
    node-llhttp libmimalloc-dev libsimdjson-dev
    clang-format xvfb xauth
    clang-14 libclang-rt-14-dev
    awscli python3-boto3 python3-pytest curl chromium
)
if ! command -v node >/dev/null 2>&1; then
    INFLIGHT_PACKAGES+=(nodejs npm)
fi

inflight_missing_packages() {
    local pkg status
    for pkg in "${INFLIGHT_PACKAGES[@]}"; do
        status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
        if [[ "$status" != "installed" ]]; then
            printf '%s\n' "$pkg"
        fi
    done
}

inflight_deps() {
    local missing
    mapfile -t missing < <(inflight_missing_packages)
    if ((${#missing[@]} == 0)); then
        return 0
    fi
    local cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${missing[*]}"
    if [[ $(id -u) -ne 0 ]]; then
        echo "deps: missing Debian packages: ${missing[*]}" >&2
        echo "deps: install them as root with:" >&2
        echo "  sudo sh -c '$cmd'" >&2
        return 1
    fi
    echo "deps: installing ${missing[*]}"
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    set -euo pipefail
    inflight_deps
fi
