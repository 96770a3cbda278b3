#!/usr/bin/env bash
# The package on a fresh Debian 12 system with no Swift anywhere, for one
# architecture (a foreign one runs under qemu-user): apt installs it with
# Debian's packages only; the binary needs only Debian's libraries; the
# shipped configuration passes check-config; render draws the same bytes as
# REFERENCE (a PNG the build machine drew); the headless demo records; an
# upgrade (the same package with a higher version) keeps an edited
# configuration; remove keeps it; purge leaves nothing of the package.
#
#   install.sh ARCH DEB REFERENCE_PNG
#
# Needs root (chroot) and the network (apt fetches the dependencies).
set -uo pipefail
cd "$(dirname "$0")/../.."
arch=$1 deb=$(readlink -f "$2") reference=$(readlink -f "$3")
tarball=$(bash scripts/debian-root "$arch" fresh) || exit 1
root=$(mktemp -d /tmp/rk-install-XXXXXX)
cleanup() {
    local m
    for m in $(awk -v d="$root/" 'index($2, d) == 1 {print $2}' /proc/mounts | sort -r); do umount -l "$m"; done
    rm -rf --one-file-system "$root"
}
trap cleanup EXIT
tar -C "$root" -xf "$tarball"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mkdir -p "$root/pkg"
cp "$deb" "$root/pkg/"
# The upgrade: the same files under a higher version.
upgrade=$root/pkg/upgrade.deb
dpkg-deb -R "$deb" "$root/pkg/unpacked"
sed -i 's/^Version: .*/&+upgrade/' "$root/pkg/unpacked/DEBIAN/control"
dpkg-deb --root-owner-group -Zxz -b "$root/pkg/unpacked" "$upgrade" >/dev/null
rm -rf "$root/pkg/unpacked"
cp Tests/Package/overflight.json "$root/pkg/"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 sh -c "$*"; }
package_field() { chroot "$root" dpkg-query -W -f="\${$1}" radar-kiosk 2>/dev/null; }

passed=0
failed=0
check() {
    if eval "$2"; then passed=$((passed + 1)); echo "ok: $arch: $1"
    else failed=$((failed + 1)); echo "FAIL: $arch: $1" >&2; fi
}

name=$(basename "$deb")
in_root "dpkg-query -W -f='\${Package}\n'" | sort > "$root/pkg/before"
in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /pkg/$name" > "$root/pkg/apt.log" 2>&1
check "apt install ./$name succeeds" "[ \"\$(package_field Status)\" = 'install ok installed' ]" || cat "$root/pkg/apt.log" >&2
in_root "dpkg-query -W -f='\${Package}\n'" | sort > "$root/pkg/after"
added=$(comm -13 "$root/pkg/before" "$root/pkg/after" | grep -v '^radar-kiosk$' | tr '\n' ' ')
# Every package apt added comes from Debian's archive.
foreign=$(for p in $added; do in_root "apt-cache policy $p" | grep 'deb.debian.org' >/dev/null || echo "$p"; done)
check "it pulls only Debian packages ($added)" "[ -z '$foreign' ] && [ -n '$added' ]"
check "no Swift anywhere on the system" "[ -z \"\$(in_root 'find / -xdev -iname \"*swift*\" -print -quit')\" ]"
libs=$(in_root "ldd /usr/bin/radar-kiosk")
check "the binary needs only the system's libraries (ldd)" "! grep -qE 'not found|/opt/|swift' <<<\"\$libs\" && grep -q libdrm <<<\"\$libs\""
check "the binary carries no symbols" "! grep -q '\.symtab' <(readelf -S '$root/usr/bin/radar-kiosk')"
check "the service user exists, in the video, input and gpio groups" \
    "in_root 'id -nG radar-kiosk' | tr ' ' '\n' | sort | tr '\n' ' ' | grep -q 'gpio input radar-kiosk video'"
check "the unit is enabled (multi-user.target wants it)" "[ -L '$root/etc/systemd/system/multi-user.target.wants/radar-kiosk.service' ]"
check "the shipped configuration passes check-config" "in_root 'radar-kiosk check-config /etc/radar-kiosk/radar-kiosk.conf' >/dev/null"
in_root "cd /tmp && radar-kiosk render --state /pkg/overflight.json --size 800x480 --out /tmp/card.png" >/dev/null 2>&1
check "render draws the same bytes as the build machine" "cmp -s '$root/tmp/card.png' '$reference'"
# Not the service's configuration: its socket lives in the unit's runtime directory.
in_root "cd /tmp && : > /tmp/own.conf && radar-kiosk run --config /tmp/own.conf --display headless --size 320x240 --refresh 30 --autoplay demo --record /tmp/demo.y4m" > "$root/pkg/demo.log" 2>&1
demo_status=$?
frames=$(grep -c FRAME "$root/tmp/demo.y4m" 2>/dev/null || echo 0)
check "the headless demo records ($frames frames)" "[ '$frames' -gt 300 ] && [ $demo_status = 0 ]" || tail -3 "$root/pkg/demo.log" >&2

echo "display = headless" >> "$root/etc/radar-kiosk/radar-kiosk.conf"
in_root "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /pkg/$(basename "$upgrade")" > "$root/pkg/upgrade.log" 2>&1
check "an upgrade installs the new version" "[ \"\$(package_field Version)\" = \"\$(dpkg-deb -f '$upgrade' Version)\" ]" \
    || cat "$root/pkg/upgrade.log" >&2
check "an upgrade keeps the edited configuration" "tail -n 1 '$root/etc/radar-kiosk/radar-kiosk.conf' | grep -q '^display = headless'"

in_root "dpkg -L radar-kiosk" > "$root/pkg/files"
mkdir -p "$root/var/lib/radar-kiosk" && echo '{}' > "$root/var/lib/radar-kiosk/overflights.jsonl"
in_root "DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq radar-kiosk" >/dev/null 2>&1
check "remove takes the binary and the unit" "[ ! -e '$root/usr/bin/radar-kiosk' ] && [ ! -e '$root/usr/lib/systemd/system/radar-kiosk.service' ]"
check "remove keeps the configuration" "[ -f '$root/etc/radar-kiosk/radar-kiosk.conf' ]"
# Installed again after a remove: the mask the remove left must go, or the service never starts.
in_root "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /pkg/$(basename "$upgrade")" > "$root/pkg/reinstall.log" 2>&1
check "install after remove leaves the unit unmasked and enabled" "[ ! -L '$root/etc/systemd/system/radar-kiosk.service' ] \
    && [ -L '$root/etc/systemd/system/multi-user.target.wants/radar-kiosk.service' ]" || cat "$root/pkg/reinstall.log" >&2
in_root "DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq radar-kiosk" >/dev/null 2>&1
in_root "DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq radar-kiosk" >/dev/null 2>&1
# Directories (and /lib, a symlink to one on a merged-/usr system) may stay: other packages share them.
left=$(while read -r f; do [ -d "$root$f" ] || { [ -e "$root$f" ] || [ -L "$root$f" ]; } && [ ! -d "$root$f" ] && echo "$f"; done < "$root/pkg/files")
check "purge leaves none of the package's files${left:+ (left: $left)}" "[ -z '$left' ]"
check "purge removes the configuration, the state and the unit's enablement" "[ ! -e '$root/etc/radar-kiosk' ] && [ ! -e '$root/var/lib/radar-kiosk' ] \
    && [ ! -e '$root/etc/systemd/system/multi-user.target.wants/radar-kiosk.service' ] && ! ls '$root/var/lib/systemd/deb-systemd-helper-enabled' -R | grep -q radar-kiosk"
check "purge keeps the service user (Debian policy: its id must not be reused)" "in_root 'id radar-kiosk' >/dev/null"

echo "package install ($arch): $passed passed, $failed failed"
[ "$failed" = 0 ]
