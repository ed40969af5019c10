#!/usr/bin/env python3
"""A PNG drawn by the toolkit, checked without an image library: png_check.py FILE WIDTH HEIGHT
MIN_COLOURS. The file must be an 8-bit RGB or RGBA PNG of that size whose pixels take at least
MIN_COLOURS distinct colours (a blank or one-colour image fails). Prints the count."""
import struct, sys, zlib

import numpy as np


def pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), f"{path}: depth {depth}, colour type {ctype}"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = 1 + w * bpp
    rows, prev = [], bytearray(w * bpp)
    for y in range(h):
        f, cur = raw[y * stride], bytearray(raw[y * stride + 1:(y + 1) * stride])
        if f == 1:  # Sub: a running sum per channel
            v = np.frombuffer(bytes(cur), dtype=np.uint8).reshape(w, bpp).astype(np.int64)
            cur = bytearray((np.cumsum(v, axis=0) & 255).astype(np.uint8).tobytes())
        elif f == 2:
            cur = bytearray((x + p) & 255 for x, p in zip(cur, prev))
        elif f in (3, 4):
            for x in range(w * bpp):
                a = cur[x - bpp] if x >= bpp else 0
                b = prev[x]
                if f == 3:
                    cur[x] = (cur[x] + ((a + b) >> 1)) & 255
                    continue
                c = prev[x - bpp] if x >= bpp else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                cur[x] = (cur[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(cur))
        prev = cur
    px = np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(h, w, bpp).astype(np.int64)
    return w, h, px[:, :, :3]


def main():
    path, want_w, want_h, min_colours = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    w, h, px = pixels(path)
    assert (w, h) == (want_w, want_h), f"{path}: {w} x {h}, expected {want_w} x {want_h}"
    colours = len(np.unique(px[:, :, 0] * 65536 + px[:, :, 1] * 256 + px[:, :, 2]))
    assert colours >= min_colours, f"{path}: {colours} distinct colours, expected at least {min_colours}"
    print(f"{path}: {w} x {h}, {colours} colours")


if __name__ == "__main__":
    main()
