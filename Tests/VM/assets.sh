#!/usr/bin/env bash
# Fetches Debian's kernel (the one linux-image-amd64 depends on) and the
# modules the VM tests load, into DIR (cached between runs).
set -euo pipefail
dir=$1
[ -f "$dir/ready" ] && exit 0
mkdir -p "$dir"
cd "$dir"
pkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
[ -n "$pkg" ] || { echo "cannot find the kernel package linux-image-amd64 depends on" >&2; exit 1; }
rm -rf root ./*.deb
apt-get download "$pkg" >/dev/null 2>&1 || (cd /tmp && apt-get download "$pkg" >/dev/null && mv /tmp/"$pkg"_*.deb "$dir"/)
dpkg-deb -x ./*.deb root
version=$(ls root/lib/modules)
cp root/boot/vmlinuz-"$version" vmlinuz
mkdir -p modules
for m in drm drm_kms_helper ttm drm_ttm_helper drm_vram_helper bochs evdev configfs; do
    find root/lib/modules/"$version" -name "$m.ko" -exec cp {} modules/ \;
    [ -f "modules/$m.ko" ] || { echo "module $m.ko not found in $pkg" >&2; exit 1; }
done
rm -rf root ./*.deb
echo "$version" > ready
