#!/bin/busybox sh
# /init of the test VM: mount the basics, load the DRM and input modules,
# then run commands that the host sends over the control channel.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /tmp /run
mkdir -p /sys/kernel/config 2>/dev/null
mount -t tmpfs tmp /tmp
exec </dev/console >/dev/console 2>&1
# The x86 VM's third display is for the screen-power test alone: no driver binds it until then.
[ -e /sys/bus/pci/devices/0000:00:10.0 ] && echo none > /sys/bus/pci/devices/0000:00:10.0/driver_override
for m in $(awk '!/^#/ && $2 == "boot" {print $1}' /etc/vm-modules.txt); do
    insmod /modules/$m.ko || echo "init: insmod $m failed"
done
mount -t configfs none /sys/kernel/config 2>/dev/null
# The kernel's own view of the display (dri/0/state: whether the CRTC is active).
mount -t debugfs none /sys/kernel/debug 2>/dev/null
# A simulated GPIO chip: 8 lines, line 3 named OVERHEAD (driven from the host).
for m in $(awk '!/^#/ && $2 == "gpio" {print $1}' /etc/vm-modules.txt); do
    insmod /modules/$m.ko || echo "init: insmod $m failed"
done
if [ -d /sys/kernel/config/gpio-sim ]; then
    c=/sys/kernel/config/gpio-sim/kiosk
    mkdir -p $c/bank0/line3
    echo 8 > $c/bank0/num_lines
    echo radar-test > $c/bank0/label
    echo OVERHEAD > $c/bank0/line3/name
    echo 1 > $c/live
fi
# Something to see on the text console, so the tests can tell it came back.
printf '\033[2J\033[HRadarKiosk test VM: text console on tty1\n' > /dev/tty1
# The host's control channel: the second serial port, or what the kernel's
# command line names (rkctl=/dev/hvc0 on the aarch64 virt machine).
ctl=${rkctl:-/dev/ttyS1}
# A virtio console appears when its PCI device is probed, after insmod returns.
for i in $(seq 100); do [ -e $ctl ] && break; sleep 0.1; done
exec 3<$ctl 4>$ctl
# Raw, no echo: lines pass as sent. Set while open: a virtio console resets
# its settings when the last user closes it (and has no speed to set).
stty raw -echo <&3
case $ctl in /dev/ttyS*) stty 115200 <&3 ;; esac
echo "init: ready" >&4
while read -r line <&3; do
    sh -c "$line" >&4 2>&4
    echo "__DONE__ $?" >&4
done
poweroff -f
