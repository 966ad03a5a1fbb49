#!/usr/bin/env python3
"""Writes crates/qi/assets/favicon.ico: a Xiangqi piece (cream disc, red ring) at 16, 32 and 48
pixels, drawn here with 4x4 supersampling and stored as PNG images inside the ICO container."""
import math
import struct
import zlib
from pathlib import Path


def pixel(x, y, size):
    """RGBA of one supersampled point: the disc, its dark edge and the red ring."""
    c = size / 2
    r = math.hypot(x - c, y - c) / (size / 2)
    if r > 0.98:
        return (0, 0, 0, 0)
    if r > 0.88:
        return (120, 84, 40, 255)
    if 0.62 < r < 0.74:
        return (179, 22, 27, 255)
    if r < 0.34:
        return (179, 22, 27, 255)
    return (251, 238, 210, 255)


def image(size):
    rows = []
    n = 4
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(n):
                for sx in range(n):
                    p = pixel(x + (sx + 0.5) / n, y + (sy + 0.5) / n, size)
                    for i in range(3):
                        acc[i] += p[i] * p[3]
                    acc[3] += p[3]
            a = acc[3] / (n * n)
            rgb = [int(acc[i] / acc[3]) if acc[3] else 0 for i in range(3)]
            row += bytes(rgb + [int(a)])
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main():
    sizes = [16, 32, 48]
    pngs = [image(s) for s in sizes]
    out = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    for s, png in zip(sizes, pngs):
        out += struct.pack("<BBBBHHII", s, s, 0, 0, 1, 32, len(png), offset)
        offset += len(png)
    out += b"".join(pngs)
    target = Path(__file__).resolve().parent.parent / "crates/qi/assets/favicon.ico"
    target.write_bytes(out)
    print(target, len(out), "bytes")


if __name__ == "__main__":
    main()
