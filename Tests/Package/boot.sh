#!/usr/bin/env bash
# The package under a real systemd: a fresh Debian 12 root with systemd as
# its init, the package installed by apt, booted with systemd-nspawn --boot
# (two spare VTs of this machine as the container's tty0 and tty1) and
# rebooted twice. What a user meets on a board after `apt install`:
# - no login prompt on tty1 beside the kiosk at any boot, and no SIGHUP
#   reaching the kiosk there (a getty's hangup of tty1 is one);
# - `systemctl reload` gives the kiosk exactly one SIGHUP, on a system
#   without procps;
# - the shipped configuration (feed = auto) finds readsb's
#   /run/readsb/aircraft.json and shows its aircraft;
# - a bad configuration stops after one try (exit 2 is not restarted), with
#   its error in the journal and on tty1's console (what the screen shows
#   once the kiosk has let the display go);
# - remove, then install again, leaves the service running.
#
#   boot.sh ARCH DEB
#
# Needs root, systemd-nspawn (installed if missing) and the network (apt).
set -uo pipefail
cd "$(dirname "$0")/../.."
arch=$1 deb=$(readlink -f "$2")
if ! command -v systemd-nspawn >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd-container >/dev/null
fi
# Spare VTs of this machine stand in for the container's tty1 and tty0.
tty1=/dev/tty62 tty0=/dev/tty63
for vt in $tty1 $tty0; do
    [ -c "$vt" ] || { echo "FAIL: $arch: boot: $vt is not a character device: the boot test needs two spare VTs" >&2; exit 1; }
done
# The container's tty1 text, as the kernel holds it; cleared of an earlier run's.
screen=/dev/vcs${tty1#/dev/tty}
printf '\033[H\033[2J' > "$tty1"
tarball=$(bash scripts/debian-root "$arch" boot systemd,systemd-sysv,dbus) || exit 1
root=$(mktemp -d /tmp/rk-boot-XXXXXX)
nspawn=
cleanup() {
    local m
    [ -n "$nspawn" ] && kill "$nspawn" 2>/dev/null && wait "$nspawn" 2>/dev/null
    for m in $(awk -v d="$root/" 'index($2, d) == 1 {print $2}' /proc/mounts | sort -r); do umount -l "$m"; done
    rm -rf --one-file-system "$root"
}
trap cleanup EXIT
tar -C "$root" -xf "$tarball"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/pkg"
cp "$deb" "$root/pkg/"
name=$(basename "$deb")
mount -t proc proc "$root/proc" && mount --bind /dev "$root/dev"
chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 sh -c \
    "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /pkg/$name" > "$root/pkg/apt.log" 2>&1 \
    || { cat "$root/pkg/apt.log" >&2; echo "FAIL: $arch: boot: apt install /pkg/$name" >&2; exit 1; }
umount "$root/dev" "$root/proc"

# readsb, as far as the kiosk can tell: its aircraft.json in /run/readsb at
# every boot (systemd-tmpfiles copies it there before multi-user.target), one
# aircraft over the station, stamped now at each boot.
cat > "$root/etc/systemd/system/readsb-fixture.service" <<'EOF'
[Unit]
Description=readsb's aircraft.json, as a receiver writes it
Before=radar-kiosk.service
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'mkdir -p /run/readsb && printf "{\\"now\\": %%s, \\"aircraft\\": [{\\"hex\\": \\"4ca7b4\\", \\"flight\\": \\"RYR8AB  \\", \\"lat\\": 51.471, \\"lon\\": -0.455, \\"alt_baro\\": 2500, \\"gs\\": 160, \\"track\\": 270, \\"seen\\": 0, \\"seen_pos\\": 0}]}" "$(date +%%s)" > /run/readsb/aircraft.json'
[Install]
WantedBy=multi-user.target
EOF
ln -s ../readsb-fixture.service "$root/etc/systemd/system/multi-user.target.wants/readsb-fixture.service"
sed -i 's/^# station = .*/station = 51.4700, -0.4543/' "$root/etc/radar-kiosk/radar-kiosk.conf"
# Under qemu-user (another architecture's root) systemd cannot set up the
# unit's IPC namespace: the namespace's descriptor, handed between its
# processes over a socket pair, does not come through the emulation, and the
# start fails at step NAMESPACE ("Failed to set up IPC namespacing:
# Input/output error"). Only that setting is lifted here, and said; the
# emulated systemd also finds no seccomp, so SystemCallFilter= and
# MemoryDenyWriteExecute= are not exercised by this run (the amd64 one does).
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
    mkdir -p "$root/etc/systemd/system/radar-kiosk.service.d"
    printf '[Service]\nPrivateIPC=no\n' > "$root/etc/systemd/system/radar-kiosk.service.d/qemu-user.conf"
    echo "note: $arch: boot: under qemu-user, with PrivateIPC=no (the emulation cannot set up the IPC namespace) and no seccomp"
fi

passed=0
failed=0
check() {
    if eval "$2"; then passed=$((passed + 1)); echo "ok: $arch: boot: $1"
    else failed=$((failed + 1)); echo "FAIL: $arch: boot: $1" >&2; fi
}
# Waits up to $1 s for the command in $2 to succeed.
wait_for() {
    local deadline=$((SECONDS + $1))
    until eval "$2"; do [ $SECONDS -ge $deadline ] && return 1; sleep 0.2; done
}
init=
inside() { nsenter -t "$init" -m -u -i -n -p -- env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
kiosk() { inside systemctl show -P "$1" radar-kiosk.service; }
journal() { inside journalctl -b -o cat -u radar-kiosk.service --no-pager; }

# Emulated systemd under qemu-user is slow: the budgets give it headroom.
budget=$([ "$arch" = "$(dpkg --print-architecture)" ] && echo 60 || echo 300)
boot() {
    systemd-nspawn --quiet --boot -D "$root" --register=no --keep-unit --console=pipe \
        --bind="$tty1:/dev/tty1" --bind="$tty0:/dev/tty0" > "$root/pkg/console.log" 2>&1 < /dev/null &
    nspawn=$!
    wait_for 30 'init=$(pgrep -P "$nspawn" -x systemd)' || { echo "FAIL: $arch: boot: no systemd in the container" >&2; return 1; }
    wait_for "$budget" '[ "$(inside systemctl is-system-running 2>/dev/null)" = running ] || [ "$(inside systemctl is-system-running 2>/dev/null)" = degraded ]'
}
shutdown() { # $1: reboot or poweroff; nspawn ends when the container's systemd does
    inside systemctl "$1" >/dev/null 2>&1
    wait_for "$budget" '! kill -0 "$nspawn" 2>/dev/null'
    wait "$nspawn" 2>/dev/null
    nspawn=
}

for round in 1 2 3; do
    boot || { cat "$root/pkg/console.log" >&2; break; }
    what="boot $round"
    check "$what: the kiosk runs (and tells systemd it is ready)" "[ \"\$(kiosk ActiveState)\" = active ]" \
        || journal | tail -5 >&2
    check "$what: no login prompt on tty1 (getty@tty1 $(inside systemctl is-active getty@tty1.service))" \
        "[ \"\$(inside systemctl is-active getty@tty1.service)\" != active ] && ! pgrep --ns \"\$init\" -t '${tty1#/dev/}' agetty >/dev/null"
    check "$what: the kiosk had no SIGHUP" "! journal | grep -q SIGHUP"
    [ $round -lt 3 ] && shutdown reboot
done

if [ -n "$init" ]; then
    check "feed = auto found readsb's aircraft.json" "journal | grep -q 'feed /run/readsb/aircraft.json, found by feed = auto'"
    wait_for 20 '[[ "$(kiosk StatusText)" == *RYR8AB* ]]'
    check "the aircraft from it is on the card ($(kiosk StatusText))" "[[ \"\$(kiosk StatusText)\" == *RYR8AB* ]]"

    # One reload, one SIGHUP. Reloads are paced to one a second, so a second
    # SIGHUP would show as a second reload within that second: the window
    # waited for below is that pacing, not a guess.
    pid=$(kiosk MainPID)
    inside systemctl reload radar-kiosk.service
    check "systemctl reload succeeds without procps (no /bin/kill here: $(inside sh -c 'command -v kill'))" "[ ! -e '$root/bin/kill' ] && [ ! -e '$root/usr/bin/kill' ] && [ \"\$(kiosk ActiveState)\" = active ]"
    wait_for 10 'journal | grep -q "configuration reloaded"'
    sleep 2
    check "systemctl reload gives the kiosk exactly one SIGHUP ($(journal | grep -c SIGHUP))" "[ \"\$(journal | grep -c SIGHUP)\" = 1 ] && [ \"\$(kiosk MainPID)\" = '$pid' ]"
    check "the reload leaves tty1 to the kiosk (no getty, no restart)" "[ \"\$(inside systemctl is-active getty@tty1.service)\" != active ] && [ \"\$(kiosk NRestarts)\" = 0 ]"

    # A mistake in the configuration: one try, then failed, with the reason.
    conf=$root/etc/radar-kiosk/radar-kiosk.conf
    cp "$conf" "$root/pkg/good.conf"
    echo 'refresh = fast' >> "$conf"
    inside systemctl restart radar-kiosk.service 2>/dev/null
    wait_for 30 '[ "$(kiosk ActiveState)" = failed ]'
    # RestartSec is 2 s: a restart, if one were coming, is due within it.
    sleep 3
    check "a bad configuration stops after one try ($(kiosk ActiveState), $(kiosk NRestarts) restarts, exit $(kiosk ExecMainStatus))" \
        "[ \"\$(kiosk ActiveState)\" = failed ] && [ \"\$(kiosk NRestarts)\" = 0 ] && [ \"\$(kiosk ExecMainStatus)\" = 2 ]"
    check "its error is in the journal" "journal | grep -q \"radar-kiosk.conf:[0-9]*: refresh: expected a number in 1...240, not 'fast'\""
    # The console's text as the kernel holds it (rows run on, so a wrapped line still matches).
    check "its error is on tty1's console, for the person at the screen" \
        "grep -a -q \"refresh: expected a number in 1...240, not 'fast'\" $screen && grep -a -q 'RadarKiosk has stopped' $screen"
    cp "$root/pkg/good.conf" "$conf"
    inside systemctl reset-failed radar-kiosk.service
    inside systemctl start radar-kiosk.service

    inside sh -c 'DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq radar-kiosk' > "$root/pkg/remove.log" 2>&1
    check "remove stops the kiosk" "[ \"\$(kiosk ActiveState)\" != active ]"
    inside sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /pkg/$name" > "$root/pkg/reinstall.log" 2>&1
    check "remove, then install again, leaves the service running" "wait_for 30 '[ \"\$(kiosk ActiveState)\" = active ]'" \
        || cat "$root/pkg/reinstall.log" >&2
    shutdown poweroff
fi

echo "package boot ($arch): $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
