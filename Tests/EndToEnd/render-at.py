#!/usr/bin/env python3
"""`render --from A --state B --at T` is the frame the live kiosk shows T
seconds after the change: compared on luma with a headless recording of the
same change at 0.5, 1.0, 1.5 and 3.0 s (the recorder keeps a frame's time in
its header, and skips frames that change nothing, so the frame shown at T is
the last one recorded at or before T).
Usage: render-at.py PATH/TO/radar-kiosk
"""
import os, shutil, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pictures import read_png

kiosk = sys.argv[1]
work = tempfile.mkdtemp(prefix="rk-render-at-")
W, H = 320, 240
OVER = '{"mode":"overflight","aircraft":{"callsign":"BAW283","type":"B789","route":"LHR \\u2192 LAX","altitude_ft":36000,"ground_speed_kt":487,"distance_nm":3.2,"bearing_deg":274}}'
failed = 0


def frames(path):
    """(time, luma bytes) for each frame of a Y4M recording."""
    data = open(path, "rb").read()
    pos = data.index(b"\n") + 1
    out = []
    while pos < len(data):
        end = data.index(b"\n", pos)
        header = data[pos:end].decode()
        pos = end + 1
        out.append((float(header.split("Xt=")[1]), data[pos:pos + W * H]))
        pos += W * H * 3 // 2
    return out


def luma(png):
    w, h, rgb = read_png(png)
    assert (w, h) == (W, H)
    return bytes(((66 * rgb[i] + 129 * rgb[i + 1] + 25 * rgb[i + 2] + 128) >> 8) + 16 for i in range(0, len(rgb), 3))


try:
    open(os.path.join(work, "standby.json"), "w").write('{"mode":"standby"}\n')
    open(os.path.join(work, "over.json"), "w").write(OVER + "\n")
    open(os.path.join(work, "change.jsonl"), "w").write('{"at":0,"cmd":"set","state":%s}\n' % OVER)
    video = os.path.join(work, "live.y4m")
    subprocess.run([kiosk, "run", "--display", "headless", "--size", f"{W}x{H}", "--refresh", "60", "--autoplay",
                    os.path.join(work, "change.jsonl"), "--record", video], check=True, capture_output=True)
    recorded = frames(video)
    for at in (0.5, 1.0, 1.5, 3.0):
        png = os.path.join(work, f"at{at}.png")
        subprocess.run([kiosk, "render", "--from", os.path.join(work, "standby.json"), "--state", os.path.join(work, "over.json"),
                        "--at", str(at), "--size", f"{W}x{H}", "--out", png], check=True, capture_output=True)
        shown_at, live = [f for f in recorded if f[0] <= at + 1e-6][-1]
        drawn = luma(png)
        mean = sum(abs(a - b) for a, b in zip(live, drawn)) / len(drawn)
        ok = mean < 0.05
        failed += 0 if ok else 1
        print(f"{'ok' if ok else 'FAIL'}: render --at {at} is the live frame at {shown_at} s (mean luma difference {mean:.4f})", flush=True)
finally:
    shutil.rmtree(work, ignore_errors=True)
print(f"render-at: {'FAILED' if failed else 'passed'}")
sys.exit(1 if failed else 0)
