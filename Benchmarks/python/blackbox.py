"""Counts decoded samples, OpenVision vs Python zxing-cpp 3.1.1, on a blackbox folder tree in zxing-cpp's
layout (test/samples: `NAME.png|jpg|webp…` with the expected text in `NAME.txt`, or bytes in `NAME.bin`).

A sample counts as decoded when one of the image's barcodes has exactly the expected text (or bytes).
Peer: `zxingcpp.read_barcodes(PIL image, text_mode=Plain)` with its other defaults, as the issue's
reference run. Ours: `openvision analyze --requests barcodes` over all files in one process (JSON Lines).
Usage: blackbox.py OPENVISION_BINARY SAMPLES_DIR [--list]   (prints a table per folder and the totals;
--list also prints every sample that one side reads and the other does not)
"""
import base64
import json
import os
import subprocess
import sys
from collections import defaultdict

import zxingcpp
from PIL import Image

IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff", ".pgm", ".gif")


def samples(root: str):
    """(image path, expected str or bytes) for every image with a NAME.txt or NAME.bin beside it."""
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            stem, ext = os.path.splitext(name)
            if ext.lower() not in IMAGE_EXTENSIONS:
                continue
            base = os.path.join(folder, stem)
            if os.path.exists(base + ".txt"):
                yield os.path.join(folder, name), open(base + ".txt", encoding="utf-8", errors="surrogateescape").read()
            elif os.path.exists(base + ".bin"):
                yield os.path.join(folder, name), open(base + ".bin", "rb").read()


def peer_reads(path: str, expected) -> bool:
    try:
        with Image.open(path) as image:
            results = zxingcpp.read_barcodes(image, text_mode=zxingcpp.TextMode.Plain)
    except Exception:
        return False
    return any((r.bytes == expected) if isinstance(expected, bytes) else (r.text == expected) for r in results)


def our_results(binary: str, paths: list[str]) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for start in range(0, len(paths), 200):
        chunk = paths[start:start + 200]
        run = subprocess.run([binary, "analyze", "--requests", "barcodes", "--format", "json", *chunk],
                             capture_output=True, text=True)
        # split("\n"), not splitlines(): a payload may hold U+0085 or U+2028 (binary content as ISO 8859-1),
        # which JSON leaves unescaped and splitlines() would split a record at.
        for line in run.stdout.split("\n"):
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            found[record.get("image", "")] = record.get("barcodes", [])
    return found


def ours_reads(barcodes: list[dict], expected) -> bool:
    if isinstance(expected, bytes):
        return any(base64.b64decode(b.get("payloadBase64", "")) == expected for b in barcodes)
    return any(b.get("payload") == expected for b in barcodes)


def main() -> None:
    binary, root = sys.argv[1], sys.argv[2]
    listing = "--list" in sys.argv[3:]
    items = list(samples(root))
    ours = our_results(binary, [p for p, _ in items])
    per_folder = defaultdict(lambda: [0, 0, 0])
    only_peer, only_ours = [], []
    for path, expected in items:
        folder = os.path.relpath(os.path.dirname(path), root)
        a = ours_reads(ours.get(path, []), expected)
        b = peer_reads(path, expected)
        row = per_folder[folder]
        row[0] += 1
        row[1] += a
        row[2] += b
        if b and not a:
            only_peer.append(path)
        if a and not b:
            only_ours.append(path)
    print(f"| folder | samples | OpenVision | Python zxing-cpp 3.1.1 |\n|---|---|---|---|")
    for folder, (n, a, b) in sorted(per_folder.items()):
        print(f"| {folder} | {n} | {a} | {b} |")
    total = [sum(r[i] for r in per_folder.values()) for i in range(3)]
    print(f"| **all** | {total[0]} | **{total[1]}** | **{total[2]}** |")
    print(f"read by the peer only: {len(only_peer)}; by OpenVision only: {len(only_ours)}")
    if listing:
        for p in only_peer:
            print("  peer only:", p)
        for p in only_ours:
            print("  ours only:", p)


if __name__ == "__main__":
    main()
