#!/usr/bin/env python3
"""The scene analysis against ffmpeg, and on the demo at two frame rates.

- `scenes --scores` gives, for every frame of a recording, the score ffmpeg's
  select filter computes (lavfi.scene_score, printed with six decimals): the
  same string for every frame.
- With the default threshold, `scenes` finds each of the demo's changes as one
  window, starting within 0.15 s of the change, at 30 Hz and at 60 Hz.
Usage: scenes.py PATH/TO/radar-kiosk
"""
import os, shutil, subprocess, sys, tempfile

# The demo's state changes (Sources/KioskModel/Demo.swift); the change at
# 15.35 s interrupts the one at 15.0 s, in the same window.
DEMO_CHANGES = [2.0, 4.5, 6.5, 8.5, 10.5, 12.5, 15.0]

kiosk = sys.argv[1]
work = tempfile.mkdtemp(prefix="rk-scenes-")
failed = 0


def check(name, ok, detail=""):
    global failed
    print(f"{'ok' if ok else 'FAIL'}: {name} {detail}".rstrip(), flush=True)
    failed += 0 if ok else 1


def ffmpeg_scores(path):
    out = os.path.join(work, "ffmpeg.txt")
    subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-vf",
                    f"select='gte(scene,0)',metadata=print:key=lavfi.scene_score:file={out}", "-f", "null", "-"], check=True)
    return [l.split("=", 1)[1].strip() for l in open(out) if l.startswith("lavfi.scene_score=")]


try:
    for hz in (30, 60):
        video = os.path.join(work, f"demo{hz}.y4m")
        subprocess.run([kiosk, "run", "--display", "headless", "--size", "800x480", "--refresh", str(hz),
                        "--autoplay", "demo", "--record", video], check=True, capture_output=True)
        listing = subprocess.run([kiosk, "scenes", video, "--scores"], check=True, capture_output=True, text=True).stdout
        ours = [l.split()[3] for l in listing.splitlines() if l.startswith("frame ")]
        if shutil.which("ffmpeg"):
            theirs = ffmpeg_scores(video)
            differ = [i for i, (a, b) in enumerate(zip(ours, theirs)) if abs(float(a) - float(b)) > 1e-6]
            check(f"{hz} Hz: every frame's score is ffmpeg's", len(ours) == len(theirs) > 100 and not differ,
                  f"({len(ours)} frames, ffmpeg {len(theirs)}, differing {differ[:5]})")
        else:
            print(f"skip: {hz} Hz: ffmpeg is not installed (apt-get install ffmpeg)", flush=True)
            failed += 1 if os.environ.get("CI") else 0
        starts = [float(l.split("(")[1].split("-")[0]) for l in listing.splitlines() if l.startswith("window ")]
        matched = len(starts) == len(DEMO_CHANGES) and all(0 <= s - c <= 0.15 for s, c in zip(starts, DEMO_CHANGES))
        check(f"{hz} Hz: the default threshold finds each demo change as one window", matched,
              f"(windows start at {starts}, changes at {DEMO_CHANGES})")
finally:
    shutil.rmtree(work, ignore_errors=True)
print(f"scenes: {'FAILED' if failed else 'passed'}")
sys.exit(1 if failed else 0)
