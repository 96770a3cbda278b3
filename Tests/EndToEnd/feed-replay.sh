#!/usr/bin/env bash
# Successive aircraft.json snapshots, written the way readsb writes them (temp
# file + rename), replayed into the headless kiosk: the recording goes
# STANDBY -> OVERFLIGHT -> STANDBY, and scenes/contact-sheet read it back.
# Usage: feed-replay.sh PATH/radar-kiosk
set -uo pipefail
kiosk=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
capture="$here/../FeedTests/Fixtures/readsb_overirvine_170ac.json"
put() { cp "$1" "$work/feed/.tmp" && mv "$work/feed/.tmp" "$work/feed/aircraft.json"; }
mkdir -p "$work/feed"
echo '{"now": 1643337800.0, "messages": 1, "aircraft": []}' > "$work/empty.json"
# The same capture with LXJ440 (the only airborne aircraft within 3 nm) moved 10 nm north.
sed 's/"lat":33.668198,"lon":-117.873492/"lat":33.850000,"lon":-117.873492/' "$capture" > "$work/away.json"
cat > "$work/k.conf" <<CONF
display = headless
size = 320x240
refresh = 30
feed = $work/feed/aircraft.json
station = 33.635029, -117.842218
overhead.hold_s = 1
keyboard = none
socket = $work/k.sock
CONF
put "$work/empty.json"
"$kiosk" run --config "$work/k.conf" --record "$work/replay.y4m" </dev/null 2>"$work/log" &
pid=$!
# Each step waits for the kiosk to show it has taken the last one in (its log,
# its answer to get), never for a fixed time: a loaded machine only makes it slower.
give_up() { echo "FAIL: $1" >&2; cat "$work/log" >&2; kill -TERM $pid 2>/dev/null; exit 1; }
logged() {   # TEXT [COUNT]: until the log holds TEXT in COUNT lines (30 s at most)
    # tail -f hands over each line as it is written, and ends with the kiosk
    # or the time limit. (grep -m did not return at its count from a pipe.)
    local seen=0 line
    while IFS= read -r line; do
        if [[ $line == *"$1"* ]]; then
            seen=$((seen + 1))
            [ $seen -ge "${2:-1}" ] && return 0
        fi
    done < <(timeout 30 tail -n +1 -f --pid=$pid "$work/log")
    give_up "no '$1' in the log within 30 s (or the kiosk exited)"
}
settled() {   # until the kiosk answers get with no glide under way, so the recording holds the whole glide
    python3 - "$work/k.sock" "$here" <<'PY' || give_up "the kiosk was still animating after 30 s"
import json, socket, sys
sys.path.insert(0, sys.argv[2])
from waiting import wait_for
def still():
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(5)
        s.connect(sys.argv[1])
        s.sendall(b'{"cmd":"get"}\n')
        return json.loads(s.makefile().readline()).get("animating") is False
sys.exit(0 if wait_for(still, 30) else 1)
PY
}
logged "first frame on"
put "$capture"; logged "state OVERFLIGHT LXJ440"; settled
put "$work/away.json"; logged "state STANDBY"; settled
# Faults: the file deleted, then garbage, then a good file again. The kiosk
# must keep running, say so once each, and pick the feed up again.
rm -f "$work/feed/aircraft.json"; logged "No such file or directory"
echo "garbage" > "$work/feed/.tmp" && mv "$work/feed/.tmp" "$work/feed/aircraft.json"; logged "malformed JSON"
put "$capture"; logged "is back"; logged "state OVERFLIGHT" 2; settled
kill -TERM $pid; wait $pid; status=$?
passed=0; failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1" >&2; cat "$work/log" >&2; fi; }
check "the kiosk exits 0" "[ $status = 0 ]"
"$kiosk" scenes "$work/replay.y4m" > "$work/scenes" 2>&1
check "the recording has the glide in and the glide out" "[ \$(grep -c '^window' '$work/scenes') -ge 2 ]"
"$kiosk" contact-sheet "$work/replay.y4m" --out "$work/sheet.png" >/dev/null 2>&1
check "the contact sheet is written" "[ -s '$work/sheet.png' ]"
order=$(grep -o 'state [A-Z]*' "$work/log" | awk '{print $2}' | tr '\n' ' ')
check "states in order: OVERFLIGHT, STANDBY, then OVERFLIGHT again after the faults (got: $order)" "grep -q 'state OVERFLIGHT LXJ440' '$work/log' && [ \"\$(grep -o 'state [A-Z]*' '$work/log' | awk '{print \$2}' | tr '\\n' ' ')\" = 'OVERFLIGHT STANDBY OVERFLIGHT ' ]"
# A fault is one log line each, and the last good picture stands until the data is stale (15 s).
check "a deleted feed file is one log line, garbage another, and the feed comes back" "grep -q 'aircraft.json: No such file or directory; keeping the last picture' '$work/log' && grep -q 'malformed JSON' '$work/log' && grep -q 'is back' '$work/log'"
# The moved file really moved LXJ440 out of range (the test's own premise).
check "the premise holds: LXJ440 moved" "grep -o '\"hex\":\"a54b30\"[^}]*' '$work/away.json' | grep -q '\"lat\":33.850000'"
echo "feed replay: $passed passed, $failed failed"
[ "$failed" = 0 ]
