#!/usr/bin/env bash
# Start to a shown window: time from launching `inflight` to its main window being mapped on the
# X server, five runs. Needs Xvfb and xwininfo (x11-utils):
#   xvfb-run -a -s "-screen 0 1600x1000x24" bash tests/bench/ui_startup_time.sh [build/app/inflight]
set -u
app=${1:-build-bench/app/inflight}
for i in 1 2 3 4 5; do
    home=$(mktemp -d)
    start=$(date +%s%N)
    HOME=$home "$app" --in-memory --listen 127.0.0.1:0 >/dev/null 2>&1 &
    pid=$!
    until xwininfo -root -tree 2>/dev/null | grep -q '"Inflight'; do sleep 0.01; done
    end=$(date +%s%N)
    echo "run $i: $(((end - start) / 1000000)) ms from launch to a mapped window"
    kill "$pid"
    wait "$pid" 2>/dev/null
    rm -rf "$home"
done
