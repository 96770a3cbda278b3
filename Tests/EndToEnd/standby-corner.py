#!/usr/bin/env python3
"""Standby's corner on a running kiosk: today's figures from a test overflight
log match a count made here over the same log (yesterday's lines, a
hand-edited line and a torn last line among them); a line appended to the log
is on the screen within a second; `standby.info = none` shows nothing there.
Usage: standby-corner.py PATH/radar-kiosk"""
import json, os, shutil, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loopback import Tally  # noqa: E402
from waiting import wait_for  # noqa: E402
from control import command, stop  # noqa: E402
from recording import frame_times, last_frame_luma  # noqa: E402

kiosk = sys.argv[1]
work = tempfile.mkdtemp(prefix="rk-corner-")
tally = Tally()
check = tally.check
W, H = 800, 480



now = time.time()
midnight = time.mktime(time.localtime(now)[:3] + (0, 0, 0, 0, 0, -1))
# Today's overflights at least a minute after midnight (the test may run just after it).
earliest = max(midnight + 60, now - 6 * 3600)


def entry(start, callsign, lowest, closest):
    return {"start": round(start), "end": round(start + 90), "callsign": callsign, "lowest_ft": lowest, "highest_ft": lowest + 400,
            "closest_nm": closest}


log = os.path.join(work, "overflights.jsonl")
today = [entry(earliest + (now - earliest) * f, c, low, near) for f, c, low, near in
         [(0.1, "BAW283", 2900, 1.2), (0.3, "EZY12", 1800, 0.9), (0.5, "DLH4", 3500, 0.3), (0.7, "AFR7", 2400, 2.1)]]
yesterday = [entry(midnight - 7200, "OLD1", 300, 0.05)]
with open(log, "w") as f:
    for e in yesterday + today[:2]:
        f.write(json.dumps(e) + "\n")
    f.write("a line edited by hand\n")
    for e in today[2:]:
        f.write(json.dumps(e) + "\n")
    f.write('{"start": 17')   # torn


def expected(entries):
    """The corner's lines, as a person would count them over the log."""
    lowest = min(entries, key=lambda e: e["lowest_ft"])
    closest = min(entries, key=lambda e: e["closest_nm"])
    last = max(entries, key=lambda e: e["end"])
    minutes = int((time.time() - last["end"]) // 60)
    ago = "just now" if minutes < 1 else f"{minutes} min ago" if minutes < 60 else f"{minutes // 60} h ago"
    return [f"{len(entries)} overflight{'s' if len(entries) != 1 else ''} today", f"Lowest {lowest['callsign']} · {lowest['lowest_ft']:,} ft",
            f"Closest {closest['callsign']} · {closest['closest_nm']:.1f} NM", f"Last {last['callsign']} · {ago}"]


def start(name, extra=""):
    sock, video, conf = (os.path.join(work, name + ext) for ext in (".sock", ".y4m", ".conf"))
    open(conf, "w").write(f"display = headless\nsize = {W}x{H}\nrefresh = 30\nkeyboard = none\nsocket = {sock}\n"
                          f"overflight_log = {log}\n{extra}")
    err = open(os.path.join(work, name + ".log"), "w")
    proc = subprocess.Popen([kiosk, "run", "--config", conf, "--record", video], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    if not wait_for(lambda: os.path.exists(sock), 20):
        raise RuntimeError(open(err.name).read())
    return proc, sock, video


def corner(sock):
    return command(sock, '{"cmd":"get"}').get("standby_info") or {}


def corner_pixels(video):
    """The top right corner of the last frame recorded (luma), where the corner stands beside the dial."""
    last = last_frame_luma(video) or bytes(W * H)
    return b"".join(last[y * W + 610:y * W + W] for y in range(0, 130))


proc = None
try:
    proc, sock, video = start("shown")
    said = wait_for(lambda: corner(sock).get("lines"), 10)
    want = expected(today)
    check("the figures match a count over the same log (yesterday's, a hand edit and a torn line passed over)",
          said == want and corner(sock).get("clock") in (time.strftime("%H:%M"), time.strftime("%H:%M", time.localtime(time.time() - 2))),
          f"(said {said}, counted {want})")
    before = corner_pixels(video)
    lowest = entry(time.time() - 200, "QTR9", 1100, 0.2)
    with open(log, "r+") as f:
        # The torn line is cut off and a whole one appended, as the kiosk's own
        # log would be after a full disk; then another by hand.
        f.truncate(len(f.read()) - len('{"start": 17'))
    with open(log, "a") as f:
        f.write(json.dumps(lowest) + "\n")
    appended = time.time()
    want = expected(today + [lowest])
    shown = wait_for(lambda: corner(sock).get("lines") == want, 1.0, step=0.02)
    took = time.time() - appended
    drawn = wait_for(lambda: corner_pixels(video) != before, 1.0, step=0.05)
    check("a line appended to the log is said and drawn within a second", shown and drawn,
          f"({took:.2f} s; said {corner(sock).get('lines')}, counted {want}; drawn {drawn})")
    stop(proc)
    proc, sock, video = start("none", "standby.info = none\n")
    wait_for(lambda: os.path.exists(video) and len(frame_times(video)) > 10, 10)
    check("standby.info = none: nothing in the corner", corner(sock) == {} and max(corner_pixels(video)) < 40,
          f"({corner(sock)}, brightest {max(corner_pixels(video))})")
except Exception as error:
    check("the standby corner test ran to its end", False, repr(error))
finally:
    if proc:
        stop(proc)

print(f"standby-corner: {tally.passed} passed, {tally.failed} failed")
if tally.failed:
    print(f"(kept for a look: {work})")
    sys.exit(1)
shutil.rmtree(work, ignore_errors=True)
