#!/usr/bin/env bash
# Fetches Debian 12's arm64 kernel, the modules the aarch64 VM test loads
# (the bochs DRM driver, a virtio console for the test's control channel, a
# USB keyboard) with their dependencies in load order, and busybox for arm64,
# into DIR (cached between runs). The list goes to DIR/modules.txt in the
# format of Tests/VM/modules.txt.
set -euo pipefail
dir=$1
# What the test needs; modules.dep adds what these need, first.
wanted="bochs virtio_pci virtio_console xhci-pci usbhid hid-generic evdev"
stamp=assets-aarch64-$(echo "$wanted" | md5sum | cut -c1-12)
grep -qs "$stamp" "$dir/ready" && exit 0
mkdir -p "$dir"
cd "$dir"
rm -rf apt root modules ./*.deb
# A private APT state for arm64: the machine's own dpkg architectures are left alone.
mkdir -p apt/lists/partial apt/cache/archives/partial
cat > apt/sources.list <<'EOF'
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main
EOF
options=(-o Dir::State="$PWD/apt" -o Dir::State::Lists="$PWD/apt/lists" -o Dir::Cache="$PWD/apt/cache"
         -o Dir::Etc::SourceList="$PWD/apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
         -o APT::Architectures::=arm64 -o APT::Architecture=arm64 -o Acquire::Languages=none)
apt-get "${options[@]}" update -qq
pkg=$(apt-cache "${options[@]}" depends linux-image-arm64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
[ -n "$pkg" ] || { echo "cannot find the kernel package linux-image-arm64 depends on" >&2; exit 1; }
apt-get "${options[@]}" download "$pkg" busybox-static 2>&1 | grep -v "unsandboxed" >&2 || true
dpkg-deb -x "$pkg"_*.deb root
dpkg-deb -x busybox-static_*.deb busybox-root
version=$(ls root/lib/modules)
cp root/boot/vmlinuz-"$version" vmlinuz
cp busybox-root/bin/busybox busybox
# modules.dep is made when a kernel is installed, not shipped: make it here.
depmod -b root "$version"
mkdir -p modules
python3 - root/lib/modules/"$version" $wanted > modules.txt <<'EOF'
import os, sys
base, wanted = sys.argv[1], sys.argv[2:]
deps = {}
for line in open(os.path.join(base, "modules.dep")):
    path, _, rest = line.partition(":")
    deps[path] = rest.split()
by_name = {os.path.basename(p).split(".ko")[0]: p for p in deps}
order = []
def visit(path):
    for d in deps[path][::-1]:   # modules.dep lists a module's needs from the top down
        visit(d)
    if path not in order:
        order.append(path)
for name in wanted:
    visit(by_name[name])
print("# The aarch64 test VM's modules in load order (made by assets-aarch64.sh).")
for path in order:
    name = os.path.basename(path).split(".ko")[0]
    os.system(f"cp {os.path.join(base, path)} modules/{name}.ko")
    print(f"{name} boot debian")
EOF
rm -rf apt root busybox-root ./*.deb
echo "$version $stamp" > ready
