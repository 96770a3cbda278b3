#!/usr/bin/env bash
# End-to-end checks of the radar-kiosk command line: help, usage errors,
# rendering, a headless recording and the tools that read it back.
# Usage: cli.sh PATH/TO/radar-kiosk
set -uo pipefail
kiosk=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

check() { # NAME CONDITION-COMMAND...
    local name=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name" >&2; fi
}

skip() { # a check that cannot run here: said, and a failure under CI, where it must run
    echo "skip: $1" >&2
    if [ -n "${CI:-}" ]; then failed=$((failed + 1)); echo "FAIL: skipped under CI: $1" >&2; fi
}

run() { # captures status, stdout, stderr of the kiosk
    "$kiosk" "$@" >"$work/out" 2>"$work/err"
    status=$?
}

run --help
check "--help exits 0 and lists every command" bash -c "[ $status = 0 ] && grep -q 'reference-frame' '$work/out' && grep -q 'contact-sheet' '$work/out'"
run --version
released=$(sed -n '1s/^radar-kiosk (\([^)]*\)).*/\1/p' "$here/../../Packaging/debian/changelog")
check "--version names the release of Packaging/debian/changelog ($released)" \
    bash -c "[ $status = 0 ] && [ -n '$released' ] && [ \"\$(cat '$work/out')\" = 'radar-kiosk $released' ]"
for c in run outputs check-config render scenes contact-sheet reference-frame bench audit; do
    run "$c" --help
    check "$c --help" bash -c "[ $status = 0 ] && grep -q '^usage: radar-kiosk $c' '$work/out'"
done
run frobnicate
check "unknown command: exit 2, one line and the usage" bash -c "[ $status = 2 ] && [ \$(wc -l < '$work/err') = 2 ] && grep -q \"unknown command 'frobnicate'\" '$work/err'"
run bench reference --colour blue
check "unknown flag: exit 2 and the usage line" bash -c "[ $status = 2 ] && grep -q 'unknown flag --colour' '$work/err' && grep -q '^usage: radar-kiosk bench' '$work/err'"
run reference-frame --size 12x12 --out "$work/x.png"
check "bad size: exit 2 (a mistake to correct), one line naming the flag" bash -c "[ $status = 2 ] && grep -q -- '--size 12x12' '$work/err'"

echo '{"mode":"overflight","aircraft":{"callsign":"BAW283","type":"B789","route":"LHR → LAX","altitude_ft":36000,"ground_speed_kt":487,"distance_nm":3.2,"bearing_deg":274}}' > "$work/over.json"
echo '{"mode":"standby"}' > "$work/standby.json"
echo '{"mode":"overflight","aircraft":{"callsign":"BAW283","altitude_ft":"high"}}' > "$work/bad.json"
run render --state "$work/over.json" --size 800x480 --out "$work/over.png"
check "render writes a PNG" bash -c "[ $status = 0 ] && head -c 8 '$work/over.png' | od -An -c | grep -q 'P   N   G'"
run render --state "$work/standby.json" --size 800x480 --out "$work/standby.png"
check "the card and the empty sky are different pictures" bash -c "[ $status = 0 ] && python3 '$here/pictures.py' differ '$work/over.png' '$work/standby.png' 5"
run render --state "$work/over.json" --from "$work/standby.json" --at 0.3 --size 800x480 --out "$work/mid.png"
check "render a moment of a transition: neither end" bash -c "[ $status = 0 ] && python3 '$here/pictures.py' differ '$work/mid.png' '$work/over.png' 2 && python3 '$here/pictures.py' differ '$work/mid.png' '$work/standby.png' 2"
run render --state "$work/over.json" --from "$work/standby.json" --at 3 --size 800x480 --out "$work/late.png"
check "render three seconds after the change: the settled state" bash -c "[ $status = 0 ] && python3 '$here/pictures.py' compare '$work/late.png' '$work/over.png' 0.3"
run render --state "$work/bad.json" --size 640x360 --out "$work/bad.png"
check "a bad state names the file and the field" bash -c "[ $status = 2 ] && grep -q 'bad.json: state.aircraft.altitude_ft: expected a number' '$work/err' && [ ! -e '$work/bad.png' ]"

run reference-frame --frame 5 --size 800x480 --out "$work/ref.png"
check "reference-frame writes frame 5, close to cairo's" bash -c "[ $status = 0 ] && python3 '$here/pictures.py' compare '$work/ref.png' '$here/../KioskTests/Fixtures/reference-frames/cairo-800x480-f5.png' 1.5"

run run --display headless --size 320x240 --refresh 30 --autoplay demo --record "$work/demo.y4m"
check "headless demo records a Y4M video" bash -c "[ $status = 0 ] && head -c 20 '$work/demo.y4m' | grep -q 'YUV4MPEG2 W320 H240'"
run scenes "$work/demo.y4m"
check "scenes finds the demo's animation windows" bash -c "[ $status = 0 ] && [ \$(grep -c '^window' '$work/out') -ge 3 ]"
run contact-sheet "$work/demo.y4m" --out "$work/sheet.png"
check "contact-sheet writes a PNG" bash -c "[ $status = 0 ] && [ -s '$work/sheet.png' ]"

# The overflight log: two overflights from stdin, written at exit, read back by `log`.
printf 'display = headless\nsize = 160x96\noverflight_log = %s\nkeyboard = none\n' "$work/ov.jsonl" > "$work/ov.conf"
printf '%s\n%s\n' '{"cmd":"set","state":{"mode":"overflight","aircraft":{"callsign":"BAW283","type":"B789","altitude_ft":3100,"distance_nm":1.2}}}' \
    '{"cmd":"set","state":{"mode":"overflight","aircraft":{"callsign":"DLH4AB","altitude_ft":9750,"distance_nm":4.6}}}' \
    | "$kiosk" run --config "$work/ov.conf" --frames 30 >/dev/null 2>&1
run log --file "$work/ov.jsonl"
check "log lists today's overflights and counts them" bash -c "[ $status = 0 ] && grep -q 'BAW283  B789  closest 1.2 NM  3,100 ft' '$work/out' && grep -q 'DLH4AB' '$work/out' && grep -q ': 2 overflights, 2 aircraft, closest 1.2 NM' '$work/out'"
run log --file "$work/ov.jsonl" --day 2020-01-01
check "log --day lists that day only" bash -c "[ $status = 0 ] && ! grep -q BAW283 '$work/out' && grep -q '2020-01-01: 0 overflights' '$work/out'"
run log --file "$work/none.jsonl"
check "log without a log file says where it looked" bash -c "[ $status = 2 ] && grep -q 'none.jsonl: no overflight log' '$work/err'"
# The service's log in its state directory (0750), asked for by someone else: denied, not "no log".
if [ "$(id -u)" = 0 ]; then
    mkdir -p "$work/state" && cp "$work/ov.jsonl" "$work/state/overflights.jsonl" && chmod 0750 "$work/state" && chmod 0755 "$work"
    setpriv --reuid=65534 --regid=65534 --clear-groups "$kiosk" log --file "$work/state/overflights.jsonl" >"$work/out" 2>"$work/err"; status=$?
    check "log of a file closed to this user says permission denied" \
        bash -c "[ $status = 2 ] && grep -q 'Permission denied' '$work/err' && ! grep -q 'no overflight log' '$work/err'"
else
    skip "the permission test needs root (to act as another user)"
fi

# No station configured: a local aircraft.json's receiver.json stands in; without a position there, a clear error.
mkdir -p "$work/receiver"
cp "$here/../FeedTests/Fixtures/dump1090fa_plord12_44ac.json" "$work/receiver/aircraft.json"
echo '{ "version" : "dump1090-fa 9.0", "refresh" : 1000, "history" : 120, "lat" : 51.075, "lon" : -0.392 }' > "$work/receiver/receiver.json"
run run --display headless --size 160x96 --feed "$work/receiver/aircraft.json" --frames 2
check "without a station the receiver's receiver.json gives it" bash -c "[ $status = 0 ] && grep -q 'station 51.075, -0.392, the receiver' '$work/err'"
echo '{ "version" : "dump1090-fa 9.0", "refresh" : 1000 }' > "$work/receiver/receiver.json"
run run --display headless --size 160x96 --feed "$work/receiver/aircraft.json" --frames 2
check "a receiver.json without lat and lon is named" bash -c "[ $status = 2 ] && grep -q 'receiver.json has no lat and lon' '$work/err'"

printf '{"at":0,"cmd":"set","state":{"mode":"standby"}}\n{"at":1,"cmd":"set","state":{"mode":"sideways"}}\n' > "$work/bad-autoplay.jsonl"
run run --display headless --size 320x240 --autoplay "$work/bad-autoplay.jsonl"
check "a bad autoplay line names the file and line" bash -c "[ $status = 1 ] && grep -q 'bad-autoplay.jsonl:2: set: state.mode: \"sideways\" is not standby or overflight' '$work/err'"

# A binary away from the source tree with no fonts anywhere: the error names every path tried.
mkdir -p "$work/alone/bin"
cp "$kiosk" "$work/alone/bin/"
(cd "$work" && "$work/alone/bin/radar-kiosk" reference-frame --out x.png >"$work/out" 2>"$work/err"); status=$?
if [ -d /usr/local/share/radar-kiosk/fonts ] || [ -d /usr/share/radar-kiosk/fonts ] || [ -f /usr/share/fonts/opentype/b612/B612-Regular.otf ]; then
    skip "fonts installed system-wide (radar-kiosk's or Debian's fonts-b612), the missing-font check cannot run here"
else
    check "a missing font names every path tried" bash -c "[ $status = 1 ] && grep -q 'B612-Regular.otf not found; tried: ' '$work/err' && grep -q 'alone/bin/../share/radar-kiosk/fonts/B612-Regular.otf' '$work/err'"
fi

# Headless for want of a display: while it waits for one it draws a frame a
# second, not a sweep at the full rate that nobody sees.
if "$kiosk" outputs --free >/dev/null 2>&1; then
    skip "a free DRM output exists, so the kiosk would not wait headless here"
else
    timeout -s TERM 4 "$kiosk" run --display auto --size 320x240 </dev/null >"$work/out" 2>"$work/err"
    frames=$(sed -n 's/.*: \([0-9]*\) frames in .*/\1/p' "$work/err")
    check "waiting headless for a display draws a frame a second (drew ${frames:-none} in 4 s)" \
        bash -c "grep -q 'using the headless display' '$work/err' && [ -n '$frames' ] && [ '$frames' -ge 2 ] && [ '$frames' -le 6 ]"
fi

echo "end-to-end: $passed passed, $failed failed"
[ "$failed" = 0 ]
