#!/usr/bin/env bash
# Fetches Debian's kernel (the one linux-image-amd64 depends on) and the
# modules the VM tests load, into DIR (cached between runs).
set -euo pipefail
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
# Cached assets are rebuilt when the list of modules changes.
stamp=assets-$(md5sum < "$here/modules.txt" | cut -c1-12)
grep -qs "$stamp" "$dir/ready" && exit 0
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
for m in $(awk '!/^#/ && $3 == "debian" {print $1}' "$here/modules.txt"); do
    find root/lib/modules/"$version" -name "$m.ko" -exec cp {} modules/ \;
    [ -f "modules/$m.ko" ] || { echo "module $m.ko not found in $pkg" >&2; exit 1; }
done
rm -rf root ./*.deb

# gpio-sim and vkms are not in Debian's kernel: build them out of tree from the
# matching source, headers and kbuild packages. gpio-sim needs irq_sim, and in
# 6.1 irq_to_desc() is not exported to modules, so irq_sim's handler calls
# generic_handle_irq(). vkms is the one DRM driver here with a vblank (an
# hrtimer at the mode's rate), for testing flip-paced frames.
kver=$(echo "$pkg" | sed 's/^linux-image-//')            # 6.1.0-57-amd64
debver=$(apt-cache show "$pkg" | awk '/^Version:/{print $2; exit}')
series=$(echo "$kver" | cut -d. -f1,2)                    # 6.1
flavour_common=$(echo "$kver" | sed 's/-amd64$/-common/')
mkdir -p gpio && cd gpio
apt-get download "linux-source-$series=$debver" "linux-headers-$kver" "linux-headers-$flavour_common" "linux-kbuild-$series=$debver" >/dev/null 2>&1 \
    || (cd /tmp && apt-get download "linux-source-$series=$debver" "linux-headers-$kver" "linux-headers-$flavour_common" "linux-kbuild-$series=$debver" >/dev/null && mv /tmp/linux-*.deb "$dir/gpio/")
for d in ./*.deb; do dpkg-deb -x "$d" root; done
tar -xJf "root/usr/src/linux-source-$series.tar.xz" "linux-source-$series/drivers/gpio/gpio-sim.c" \
    "linux-source-$series/drivers/gpio/gpiolib.h" "linux-source-$series/kernel/irq/irq_sim.c" "linux-source-$series/drivers/gpu/drm/vkms"
mkdir -p mod
cp "linux-source-$series/drivers/gpio/gpio-sim.c" mod/gpio-sim-main.c
cp "linux-source-$series/drivers/gpio/gpiolib.h" "linux-source-$series/kernel/irq/irq_sim.c" mod/
sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' mod/irq_sim.c
printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' > mod/Kbuild
headers="$PWD/root/usr/src/linux-headers-$kver"
# The headers' Makefile includes the common headers by an absolute /usr/src path.
sed -i "s|include /usr/src/|include $PWD/root/usr/src/|" "$headers/Makefile"
make -s -C "$headers" M="$PWD/mod" modules 2>&1 | grep -v "Skipping BTF" || true
cp mod/gpio-sim.ko ../modules/
mkdir -p vkms
cp "linux-source-$series"/drivers/gpu/drm/vkms/*.[ch] vkms/
printf 'obj-m := vkms.o\nvkms-y := %s\n' "$(cd vkms && ls *.c | sed 's/\.c$/.o/' | tr '\n' ' ')" > vkms/Kbuild
make -s -C "$headers" M="$PWD/vkms" modules 2>&1 | grep -v "Skipping BTF" || true
cp vkms/vkms.ko ../modules/
cd ..
rm -rf gpio
echo "$version $stamp" > ready
