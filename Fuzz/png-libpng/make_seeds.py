# Seeds for Fuzz/png-libpng: small PNGs of the kinds the libdeflate path leaves to libpng. Made with
#   cd Fuzz/corpus/png-libpng && python3 ../../png-libpng/make_seeds.py
import struct, zlib
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
def png(w, h, depth, ctype, raw, interlace=0, extra=b""):
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, interlace)) + extra
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
def rows(w, h, bpp, f=lambda x, y, c: (x * 37 + y * 11 + c * 5) & 255):
    return b"".join(b"\x00" + bytes(f(x, y, c) for x in range(w) for c in range(bpp)) for y in range(h))
def adam7(w, h, bpp):
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    out = b""
    for x0, y0, dx, dy in passes:
        xs, ys = list(range(x0, w, dx)), list(range(y0, h, dy))
        if not xs or not ys: continue
        for y in ys: out += b"\x00" + bytes(((x * 37 + y * 11 + c * 5) & 255) for x in xs for c in range(bpp))
    return out
files = {
    "interlaced-rgb.png": png(9, 7, 8, 2, adam7(9, 7, 3), interlace=1),
    "rgb16.png": png(5, 4, 16, 2, rows(5, 4, 6)),
    "palette.png": png(6, 3, 8, 3, rows(6, 3, 1, lambda x, y, c: (x + y) % 4),
                       extra=chunk(b"PLTE", bytes([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255])) + chunk(b"tRNS", b"\x00\x80")),
    "gray2.png": png(8, 2, 2, 0, b"".join(b"\x00" + bytes([0x1b, 0xe4]) for _ in range(2))),
    "iccp-short.png": png(4, 4, 8, 0, rows(4, 4, 1), extra=chunk(b"iCCP", b"x\x00\x00")),
}
files["truncated.png"] = files["rgb16.png"][:60]
for name, data in files.items(): open(name, "wb").write(data)
