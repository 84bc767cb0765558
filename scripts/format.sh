#!/usr/bin/env bash
# Formats every tracked C++ source under app/ core/ ui/ tests/ in place with .clang-format.
# With --check, changes nothing and lists the files that are not formatted.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mapfile -t files < <(git ls-files -- 'app/*.h' 'app/*.cpp' 'core/*.h' 'core/*.cpp' \
    'ui/*.h' 'ui/*.cpp' 'tests/*.h' 'tests/*.cpp')
if ((${#files[@]} == 0)); then
    exit 0
fi

if [[ "${1:-}" == "--check" ]]; then
    bad=()
    for f in "${files[@]}"; do
        [[ -f "$f" ]] || continue
        if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
            bad+=("$f")
        fi
    done
    if ((${#bad[@]} > 0)); then
        echo "format: ${#bad[@]} file(s) do not match .clang-format:" >&2
        printf '  %s\n' "${bad[@]}" >&2
        echo "format: fix with: bash scripts/format.sh" >&2
        echo "format: (see the differences with: clang-format --dry-run FILE)" >&2
        exit 1
    fi
    echo "format: ${#files[@]} files OK"
    exit 0
fi

existing=()
for f in "${files[@]}"; do
    [[ -f "$f" ]] && existing+=("$f")
done
clang-format -i "${existing[@]}"
echo "format: formatted ${#existing[@]} files"
