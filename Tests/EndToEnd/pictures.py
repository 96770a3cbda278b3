#!/usr/bin/env python3
"""PNG and PPM reading and picture comparison for the end-to-end tests, with no
dependency beyond Python. As a command:
    pictures.py compare A.png B.png MAX-MEAN     exit 0 if the mean channel difference is at most MAX-MEAN
    pictures.py differ A.png B.png MIN-MEAN      exit 0 if it is at least MIN-MEAN
"""
import struct
import sys
import zlib


def read_png(path):
    """RGB(A) 8-bit PNG -> (width, height, bytes RGB). Enough for libpng's output."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "unsupported PNG"
            channels = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * channels
    out = bytearray(h * stride)
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    if channels == 4:
        out = bytearray(b for i in range(0, len(out), 4) for b in out[i:i + 3])
    return w, h, bytes(out)


def read_ppm(path):
    data = open(path, "rb").read()
    parts, pos = [], 0
    while len(parts) < 4:
        while data[pos:pos + 1].isspace(): pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace(): end += 1
        parts.append(data[pos:end]); pos = end
    pos += 1
    assert parts[0] == b"P6"
    return int(parts[1]), int(parts[2]), data[pos:]


def difference(a, b):
    """Mean absolute channel difference and share of channels off by more than 8."""
    assert len(a) == len(b)
    total, over = 0, 0
    for x, y in zip(a, b):
        d = abs(x - y)
        total += d
        over += d > 8
    return total / len(a), over / len(a)


if __name__ == "__main__":
    verb, a, b, bound = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    wa, ha, pa = read_png(a)
    wb, hb, pb = read_png(b)
    if (wa, ha) != (wb, hb):
        print(f"{a} is {wa}x{ha}, {b} is {wb}x{hb}")
        sys.exit(1)
    mean, over8 = difference(pa, pb)
    ok = mean <= bound if verb == "compare" else mean >= bound
    print(f"{verb} {a} {b}: mean difference {mean:.3f} ({'ok' if ok else 'not'} against {bound})")
    sys.exit(0 if ok else 1)
