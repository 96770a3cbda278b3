#!/usr/bin/env python3
"""The packaged kiosk's embedded figures: start to first frame and resident
memory on the headless display, as a user would run it (medians of several
starts). A figure tool, not a test: it asserts nothing.

    figures.py [--root DIR] [--runs N] [--binary PATH]

With --root, the kiosk runs in that root (chroot): a Debian 12 root with the
package installed, of this machine's architecture or another under qemu-user,
where the resident memory is qemu's and says little.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "EndToEnd"))
from waiting import wait_until_steady  # noqa: E402


def resident_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def one_start(prefix, binary, size, settle):
    """Seconds from exec to the first frame, and the resident memory once it is steady."""
    command = prefix + ["sh", "-c", f": > /tmp/figures.conf; exec {binary} run --config /tmp/figures.conf "
                        f"--display headless --size {size} --refresh 60"]
    started = time.monotonic()
    # With a root, chroot and sh exec into the kiosk: the pid stays the kiosk's.
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    first = None
    for line in process.stderr:
        if "first frame on" in line:
            first = time.monotonic() - started
            break
    # Until the resident size holds still to 64 KiB for half a second (the
    # sweep's cache taken, its cells given back), for at most `settle` seconds.
    wait_until_steady(lambda: resident_kib(process.pid) // 64, 0.5, settle, step=0.25)
    rss = resident_kib(process.pid)
    process.terminate()
    process.wait(10)
    return first, rss


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root")
    p.add_argument("--binary", default="/usr/bin/radar-kiosk")
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    prefix = ["chroot", args.root] if args.root else []
    for size in ["800x480", "1920x1080"]:
        starts, memory = [], []
        for _ in range(args.runs):
            first, rss = one_start(prefix, args.binary, size, settle=10.0)
            if first is not None:
                starts.append(first * 1000)
            memory.append(rss / 1024)
        print(f"{size}: first frame {statistics.median(starts):.1f} ms after exec (median of {len(starts)}), "
              f"resident {statistics.median(memory):.1f} MB")


if __name__ == "__main__":
    main()
