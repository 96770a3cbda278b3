#!/bin/busybox sh
# /init of the test VM: mount the basics, load the DRM and input modules,
# then run commands that the host sends over the second serial port.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /tmp /run /sys/kernel/config
mount -t tmpfs tmp /tmp
exec </dev/console >/dev/console 2>&1
for m in $(awk '!/^#/ && $2 == "boot" {print $1}' /etc/vm-modules.txt); do
    insmod /modules/$m.ko || echo "init: insmod $m failed"
done
mount -t configfs none /sys/kernel/config 2>/dev/null
# A simulated GPIO chip: 8 lines, line 3 named OVERHEAD (driven from the host).
for m in $(awk '!/^#/ && $2 == "gpio" {print $1}' /etc/vm-modules.txt); do
    insmod /modules/$m.ko || echo "init: insmod $m failed"
done
c=/sys/kernel/config/gpio-sim/kiosk
mkdir -p $c/bank0/line3
echo 8 > $c/bank0/num_lines
echo radar-test > $c/bank0/label
echo OVERHEAD > $c/bank0/line3/name
echo 1 > $c/live
# Something to see on the text console, so the tests can tell it came back.
printf '\033[2J\033[HRadarKiosk test VM: text console on tty1\n' > /dev/tty1
stty -F /dev/ttyS1 raw -echo 115200
exec 3</dev/ttyS1 4>/dev/ttyS1
echo "init: ready" >&4
while read -r line <&3; do
    sh -c "$line" >&4 2>&4
    echo "__DONE__ $?" >&4
done
poweroff -f
