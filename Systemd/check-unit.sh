#!/usr/bin/env bash
# Checks Systemd/radar-kiosk.service the way CI does: systemd-analyze verify
# must print nothing, and the offline security exposure must be at most the
# figure docs/deploying.md states.
# Usage: check-unit.sh PATH/TO/radar-kiosk
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kiosk=$1
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
# A root with the binary where the unit expects it, and the system's own units and shell.
mkdir -p "$root/usr/local/bin" "$root/etc/systemd/system" "$root/lib/systemd" "$root/bin" "$root/usr/lib"
cp "$kiosk" "$root/usr/local/bin/radar-kiosk"
cp -a /lib/systemd/system "$root/lib/systemd/"
cp /bin/sh "$root/bin/sh"
cp "$here/radar-kiosk.service" "$root/etc/systemd/system/"
out=$(systemd-analyze verify --root="$root" /etc/systemd/system/radar-kiosk.service 2>&1 || true)
if [ -n "$out" ]; then
    echo "FAIL: systemd-analyze verify:" >&2
    echo "$out" >&2
    exit 1
fi
echo "ok: systemd-analyze verify is clean"
# The getty@tty1 drop-in verifies clean, and its condition names the path
# `systemctl enable radar-kiosk` creates (the unit's WantedBy).
mkdir -p "$root/etc/systemd/system/getty@tty1.service.d"
cp "$here/getty-tty1.conf" "$root/etc/systemd/system/getty@tty1.service.d/radar-kiosk.conf"
out=$(systemd-analyze verify --root="$root" getty@tty1.service 2>&1 || true)
wanted=$(sed -n 's/^WantedBy=//p' "$here/radar-kiosk.service")
if [ -n "$out" ] || ! grep -qx "ConditionPathExists=!/etc/systemd/system/$wanted.wants/radar-kiosk.service" "$here/getty-tty1.conf"; then
    echo "FAIL: the getty@tty1 drop-in: ${out:-its condition does not name /etc/systemd/system/$wanted.wants/radar-kiosk.service}" >&2
    exit 1
fi
echo "ok: the getty@tty1 drop-in verifies clean and follows the unit's enablement"
# The shipped drop-ins (Systemd/lan.conf, Systemd/internet.conf) verify clean on top, each alone.
mkdir -p "$root/etc/systemd/system/radar-kiosk.service.d"
for dropin in lan internet; do
    rm -f "$root/etc/systemd/system/radar-kiosk.service.d/"*
    cp "$here/$dropin.conf" "$root/etc/systemd/system/radar-kiosk.service.d/"
    out=$(systemd-analyze verify --root="$root" /etc/systemd/system/radar-kiosk.service 2>&1 || true)
    if [ -n "$out" ] || ! grep -q '^IPAddressAllow=' "$here/$dropin.conf"; then
        echo "FAIL: systemd-analyze verify with the $dropin drop-in:" >&2
        echo "$out" >&2
        exit 1
    fi
    echo "ok: systemd-analyze verify is clean with the $dropin drop-in"
done
# The screen must light without waiting for the network: a board booted
# offline would otherwise wait for network-online.target's timeout.
if grep -E '^(After|Wants|Requires)=.*network-online\.target' "$here/radar-kiosk.service" >/dev/null; then
    echo "FAIL: the unit waits for network-online.target; the kiosk must start without the network" >&2
    exit 1
fi
echo "ok: the unit does not wait for the network"
exposure=$(cd "$here" && systemd-analyze security --offline=true radar-kiosk.service 2>/dev/null | sed -n 's/.*Overall exposure level for radar-kiosk.service: \([0-9.]*\).*/\1/p')
stated=$(sed -n 's/.*`systemd-analyze security` rates it \([0-9.]*\).*/\1/p' "$here/../docs/deploying.md" | head -1)
if [ -z "$stated" ]; then
    echo "FAIL: docs/deploying.md does not state the unit's security exposure" >&2
    exit 1
fi
if [ -z "$exposure" ] || awk -v e="$exposure" -v s="$stated" 'BEGIN { exit !(e > s) }'; then
    echo "FAIL: systemd-analyze security exposure ${exposure:-unknown} (must be at most $stated, as docs/deploying.md says)" >&2
    exit 1
fi
echo "ok: systemd-analyze security exposure $exposure (at most $stated, as docs/deploying.md says)"
