#!/usr/bin/env bash
# Install into a scratch root and check what lands where; a second install
# keeps an edited configuration; uninstall removes what install placed.
set -uo pipefail
cd "$(dirname "$0")/../.."
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
passed=0
failed=0
check() { if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1" >&2; fi; }

DESTDIR=$dest bash scripts/install >/dev/null 2>&1
check "binary installed" "[ -x '$dest/usr/local/bin/radar-kiosk' ]"
check "the internet and LAN drop-ins installed beside the data" "grep -qx 'IPAddressAllow=any' '$dest/usr/local/share/radar-kiosk/internet.conf' && grep -q '^IPAddressAllow=10.0.0.0/8' '$dest/usr/local/share/radar-kiosk/lan.conf'"
check "fonts installed" "[ -f '$dest/usr/local/share/radar-kiosk/fonts/B612-Regular.otf' ] && [ -f '$dest/usr/local/share/radar-kiosk/fonts/OFL.txt' ]"
check "unit installed" "grep -q '^ExecStart=/usr/local/bin/radar-kiosk run' '$dest/etc/systemd/system/radar-kiosk.service'"
check "the getty@tty1 drop-in installed (no login prompt on the kiosk's tty1 while it is enabled)" \
    "grep -q '^ConditionPathExists=!/etc/systemd/system/multi-user.target.wants/radar-kiosk.service' '$dest/etc/systemd/system/getty@tty1.service.d/radar-kiosk.conf'"
check "default configuration is valid" "'$dest/usr/local/bin/radar-kiosk' check-config '$dest/etc/radar-kiosk/radar-kiosk.conf' >/dev/null"
check "the installed binary finds the installed standing data: a capture's card gets its route and airline" "(cd / && '$dest/usr/local/bin/radar-kiosk' render --feed '$PWD/Tests/FeedTests/Fixtures/dump1090fa_plord12_44ac.json' --station 51.350377,-0.578384 --size 320x240 --out '$dest/c.png' 2>&1 | grep -q 'KQA101 · [A-Z]* → [A-Z]* · Kenya Airways')"
check "the installed binary finds the installed fonts" "(cd / && '$dest/usr/local/bin/radar-kiosk' reference-frame --size 320x240 --out '$dest/f.png' >/dev/null 2>&1)"
echo "display = headless" >> "$dest/etc/radar-kiosk/radar-kiosk.conf"
DESTDIR=$dest bash scripts/install >/dev/null 2>&1
check "an upgrade keeps the edited configuration" "tail -n 1 '$dest/etc/radar-kiosk/radar-kiosk.conf' | grep -q '^display = headless'"
check "the shipped default sits beside it" "[ -f '$dest/etc/radar-kiosk/radar-kiosk.conf.dist' ]"
DESTDIR=$dest bash scripts/install --uninstall >/dev/null 2>&1
check "uninstall removes the binary, fonts and unit" "[ ! -e '$dest/usr/local/bin/radar-kiosk' ] && [ ! -e '$dest/usr/local/share/radar-kiosk' ] && [ ! -e '$dest/etc/systemd/system/radar-kiosk.service' ] \
    && [ ! -e '$dest/etc/systemd/system/getty@tty1.service.d/radar-kiosk.conf' ]"
check "uninstall keeps the configuration" "[ -f '$dest/etc/radar-kiosk/radar-kiosk.conf' ]"
echo "install: $passed passed, $failed failed"
[ "$failed" = 0 ]
