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
    # clang-format in batches of files, two at a time: it names each file it would change.
    mapfile -t bad < <(printf '%s\0' "${files[@]}" |
        xargs -0 -n 64 -P "${JOBS:-2}" clang-format --dry-run --Werror 2>&1 >/dev/null |
        sed -n -E 's/^([^:]+):[0-9]+:[0-9]+: (error|warning): .*/\1/p' | sort -u)
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
