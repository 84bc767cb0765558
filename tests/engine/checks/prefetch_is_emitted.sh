#!/bin/sh
# The engine's prefetches are hints a compiler may drop without a word: GCC 12 dropped the FIFO
# send's for two sessions (engine/prefetch.h says how). The FIFO send's (the deduplication
# window's slot) and receive's (a cold backlog's next messages) must be in the machine code.
# Usage: prefetch_is_emitted.sh OBJDUMP LIBRARY
set -eu
objdump=$1
library=$2
listing=$("$objdump" -d -C --no-show-raw-insn "$library")
status=0
for functions in 'BrokerState::sendOne(|DedupWindow::prefetch(' \
                 'BrokerState::receiveNow(|MessageStore::prefetch'; do
    count=$(printf '%s\n' "$listing" | awk -v functions="$functions" '
        BEGIN { n = split(functions, names, "|") }
        /^[0-9a-f]+ <.*>:$/ {
            inside = 0
            for (i = 1; i <= n; ++i) if (index($0, names[i]) > 0) inside = 1
        }
        inside && /prefetch/ { ++count }
        END { print count + 0 }')
    if [ "$count" -eq 0 ]; then
        echo "no prefetch instruction in $functions of $library" >&2
        status=1
    else
        echo "$functions: $count prefetch instructions"
    fi
done
exit $status
