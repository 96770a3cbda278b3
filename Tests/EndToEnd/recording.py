"""What the headless kiosk's recording says: the time of each frame (the
Xt= field the recorder writes in each Y4M frame header)."""


def frame_times(path):
    data = open(path, "rb").read()
    header_end = data.index(b"\n")
    fields = dict((f[:1], f[1:]) for f in data[:header_end].split()[1:])
    size = int(fields[b"W"]) * int(fields[b"H"]) * 3 // 2
    times, pos = [], header_end + 1
    while pos < len(data):
        end = data.index(b"\n", pos)
        head = data[pos:end].split()
        times.append(float(next(h[3:] for h in head if h.startswith(b"Xt="))))
        pos = end + 1 + size
    return times


# How long a `get` may take while the kiosk is under load: it is answered on
# the loop's next turn (a frame), and a loop held by whatever loads it takes
# the whole 1 s timeout. A quarter second leaves room for the test script's
# own scheduling on a loaded 2-core machine (seen 0.18 s late once in CI).
GET_ANSWER_LIMIT = 0.25


def p99(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.99))] if values else float("inf")


def last_frame_luma(path):
    """The luma plane of the last whole frame of a recording, read from its end (a long recording is not read whole)."""
    with open(path, "rb") as f:
        header = f.readline()
        fields = dict((x[:1], x[1:]) for x in header.split()[1:])
        w, h = int(fields[b"W"]), int(fields[b"H"])
        size = w * h * 3 // 2
        f.seek(0, 2)
        end = f.tell()
        f.seek(max(len(header), end - 2 * (size + 200)))
        tail = f.read()
    start = len(tail)
    while True:
        start = tail.rfind(b"FRAME", 0, start)
        if start < 0:
            return None
        body = tail.index(b"\n", start) + 1
        if body + size <= len(tail):
            return tail[body:body + w * h]
