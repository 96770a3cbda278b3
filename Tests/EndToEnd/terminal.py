#!/usr/bin/env python3
"""Run by hand in a terminal: keys typed there drive the kiosk, q quits, and
the terminal's settings are put back. Usage: terminal.py PATH/radar-kiosk"""
import os, pty, subprocess, sys, termios, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from waiting import wait_for  # noqa: E402

kiosk = sys.argv[1]
passed = failed = 0
def check(name, ok, detail=""):
    global passed, failed
    passed, failed = (passed + 1, failed) if ok else (passed, failed + 1)
    if not ok: print(f"FAIL: {name} {detail}", file=sys.stderr)

master, slave = pty.openpty()
before = termios.tcgetattr(slave)
log = open(os.path.join(os.environ.get("TMPDIR", "/tmp"), f"rk-terminal-{os.getpid()}.log"), "w+")
env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
proc = subprocess.Popen([kiosk, "run", "--display", "headless", "--size", "320x240", "--refresh", "30"],
                        stdin=slave, stdout=slave, stderr=log, env=env)

def in_raw_mode():
    mode = termios.tcgetattr(slave)[3]
    return not (mode & termios.ICANON) and not (mode & termios.ECHO)


def logged(text):
    log.seek(0)
    return text in log.read()


check("the terminal is in raw mode while the kiosk runs", wait_for(in_raw_mode, 15))
os.write(master, b"o")
wait_for(lambda: logged("(key o)"), 15)
# An arrow: decoded, unmapped, ignored. Nothing shows that it was read, so it
# is given a moment to arrive as a read of its own, apart from the q after it.
os.write(master, b"\x1b[A")
time.sleep(0.3)
os.write(master, b"q")
try:
    code = proc.wait(10)
except subprocess.TimeoutExpired:
    proc.kill(); code = None
log.seek(0)
text = log.read()
# With no aircraft known, the card says so: no invented callsign (the demo's BAW283 belongs to --autoplay demo only).
check("a key typed in the terminal changes the state", "state OVERFLIGHT (key o)" in text and "BAW283" not in text, text[-300:])
check("q quits when run by hand, exit 0", code == 0 and "quit (key q)" in text, f"exit {code}")
after = termios.tcgetattr(slave)
check("the terminal's settings are restored", after == before)
print(f"terminal: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
