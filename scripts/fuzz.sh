#!/usr/bin/env bash
# Builds the libFuzzer targets (CMakePresets.json: fuzz, clang-14, build-fuzz/) and runs each:
# first every input of its committed corpus once (tests/fuzz/corpus/<folder>/: the seeds and the
# crashers of the past, so a crash that comes back fails here), then fuzzing for a bounded time
# on a copy of that corpus in a temporary folder (the committed corpus is never written).
# Usage: bash scripts/fuzz.sh [SECONDS [TARGET...]]
#   SECONDS  fuzzing time per target (default INFLIGHT_FUZZ_SECONDS, else 30); 0 = replay only
#   TARGET   fuzz_sqs_json, fuzz_sqs_query, fuzz_oci_rest, fuzz_http_parser (default: all)
# JOBS targets run at once (default 2: the machine's cores); BUILD_DIR overrides build-fuzz.
# A crash, leak, timeout (-timeout=10 s per input) or memory blow-up (-rss_limit_mb=2048) fails
# the script, which prints the input's path and its bytes in base64. Longer runs by hand:
# tests/fuzz/README.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

. scripts/deps.sh
inflight_deps

FUZZ_SECONDS=${1:-${INFLIGHT_FUZZ_SECONDS:-30}}
shift || true
BUILD_DIR=${BUILD_DIR:-build-fuzz}
JOBS=${JOBS:-2}
MAX_LEN=${INFLIGHT_FUZZ_MAX_LEN:-8192}
start=$SECONDS

# target → corpus folder and dictionary (tests/fuzz/).
declare -A CORPUS=([fuzz_sqs_json]=json [fuzz_sqs_query]=query [fuzz_oci_rest]=oci
    [fuzz_http_parser]=http)
declare -A DICT=([fuzz_sqs_json]=sqs.dict [fuzz_sqs_query]=sqs.dict [fuzz_oci_rest]=oci.dict
    [fuzz_http_parser]=http.dict)
targets=("$@")
if ((${#targets[@]} == 0)); then
    targets=(fuzz_sqs_json fuzz_sqs_query fuzz_oci_rest fuzz_http_parser)
fi

if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
    cmake --preset fuzz -B "$BUILD_DIR"
fi
# fuzz_http_parser exists only once core/server/http_request_parser.cpp does.
known=$(ninja -C "$BUILD_DIR" -t targets all)
available=()
for t in "${targets[@]}"; do
    [[ -n "${CORPUS[$t]:-}" ]] || { echo "fuzz: unknown target $t" >&2; exit 2; }
    if grep -q "^$t: phony" <<<"$known"; then
        available+=("$t")
    else
        echo "fuzz: $t is not part of this build (see tests/fuzz/CMakeLists.txt), skipped" >&2
    fi
done
cmake --build "$BUILD_DIR" -j "$JOBS" --target "${available[@]}"
built=$SECONDS

WORK=$(mktemp -d "${TMPDIR:-/tmp}/inflight-fuzz.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Crashers too big for the repository, made here: Query, a 300,000-segment name without Action
# (600 KB).
mkdir -p "$WORK/generated/query"
{
    printf 'a.%.0s' $(seq 300000)
    printf 'a=1'
} >"$WORK/generated/query/crash-300000-segments"

# Crashing inputs are kept here (the temporary folder goes at the end).
ARTIFACTS="$PWD/$BUILD_DIR/fuzz-artifacts"
mkdir -p "$ARTIFACTS"

# show TARGET FILE: keeps a copy of FILE in $ARTIFACTS and prints its path, size and bytes in
# base64 (the first 64 KiB of a larger one).
show() {
    local file="$ARTIFACTS/$1-$(basename "$2")" size
    cp "$2" "$file"
    size=$(stat -c %s "$file")
    echo "fuzz: input $file ($size bytes), base64:"
    if ((size <= 65536)); then
        base64 -w 0 "$file"
    else
        head -c 65536 "$file" | base64 -w 0
        echo
        echo "fuzz: (first 64 KiB only; sha256 $(sha256sum "$file" | cut -d' ' -f1))"
    fi
    echo
}

# run TARGET: replay, then fuzz; the log goes to $WORK/TARGET.log, the verdict to TARGET.status.
run() {
    local t=$1 folder=${CORPUS[$1]} bin="$BUILD_DIR/tests/fuzz/$1" dir="$WORK/$1"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    cp tests/fuzz/corpus/"$folder"/* "$dir/corpus/"
    local replay=("$dir"/corpus/*)
    if compgen -G "$WORK/generated/$folder/*" >/dev/null; then
        replay+=("$WORK/generated/$folder"/*)
    fi
    # Replay: every input once, whole (fuzzing below cuts inputs to -max_len).
    if ! "$bin" -rss_limit_mb=2048 -timeout=10 "${replay[@]}" >"$dir/replay.log" 2>&1; then
        cat "$dir/replay.log" >"$WORK/$t.log"
        local crashed
        crashed=$(sed -n 's/^Running: //p' "$dir/replay.log" | tail -n 1)
        if [[ -n "$crashed" && -f "$crashed" ]]; then
            { echo "fuzz: $t crashed on a corpus input (a regression):"; show "$t" "$crashed"; } \
                >>"$WORK/$t.log"
        else
            echo "fuzz: $t failed before running an input (see above)" >>"$WORK/$t.log"
        fi
        echo fail >"$WORK/$t.status"
        return
    fi
    if ((FUZZ_SECONDS == 0)); then
        echo "fuzz: $t replayed ${#replay[@]} inputs" >"$WORK/$t.log"
        echo ok >"$WORK/$t.status"
        return
    fi
    local status=0
    timeout $((FUZZ_SECONDS + 300)) "$bin" -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=2048 \
        -timeout=10 -max_len="$MAX_LEN" -dict="tests/fuzz/${DICT[$t]}" -print_final_stats=1 \
        -artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$WORK/$t.log" 2>&1 || status=$?
    if ((status != 0)) || compgen -G "$dir/artifacts/*" >/dev/null; then
        {
            echo "fuzz: $t failed (exit $status) after replaying ${#replay[@]} inputs"
            for a in "$dir"/artifacts/*; do
                [[ -f "$a" ]] && show "$t" "$a"
            done
        } >>"$WORK/$t.log"
        echo fail >"$WORK/$t.status"
    else
        echo "fuzz: $t replayed ${#replay[@]} inputs, then fuzzed ${FUZZ_SECONDS} s:" \
            "$(grep -E '^#[0-9]+.*DONE' "$WORK/$t.log" | tail -n 1)" \
            "$(grep -E '^stat::number_of_executed_units' "$WORK/$t.log")" >>"$WORK/$t.log"
        echo ok >"$WORK/$t.status"
    fi
}

echo "fuzz: ${available[*]}: replay, then ${FUZZ_SECONDS} s each, $JOBS at a time"
running=0
for t in "${available[@]}"; do
    run "$t" &
    running=$((running + 1))
    if ((running >= JOBS)); then
        wait -n || true
        running=$((running - 1))
    fi
done
wait

failed=()
for t in "${available[@]}"; do
    if [[ "$(cat "$WORK/$t.status" 2>/dev/null)" == ok ]]; then
        tail -n 1 "$WORK/$t.log"
    else
        failed+=("$t")
        echo "==== $t ====" >&2
        # The sanitizer's report and the input: the end of the log, without the progress lines.
        grep -vE '^#[0-9]+\s+(NEW|REDUCE|pulse|INITED)' "$WORK/$t.log" | tail -n 150 >&2
    fi
done
echo "fuzz: build $((built - start)) s, runs $((SECONDS - built)) s"
if ((${#failed[@]} > 0)); then
    echo "fuzz: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: ${#available[@]} targets passed"
