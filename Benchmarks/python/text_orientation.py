"""Character error rate of text on pages turned 0, 90, 180 and 270 degrees clockwise: OpenVision's
RecognizeTextRequest (.fast and .accurate, page orientation detection on and off: `--text-orientation auto|up`)
against the tesseract command line (5.3, `-l eng`, its default page segmentation) and rapidocr-onnxruntime 1.4.4
(its defaults), and our time per upright page with detection on vs off (`timingsMs`: RUNS rounds alternating off and on, 5
reads each after a warm-up read, medians).

CER = Levenshtein distance between the read text and the expected text (every run of whitespace as one space,
lines joined in reading order) / length of the expected text. Pages: PAGE.png|tif with PAGE.txt beside it
(Tesseract's testing/phototest.tif and eurotext.tif from the public tesseract-ocr/tesseract repository).

usage: text_orientation.py OPENVISION_BINARY OUT_DIR RUNS PAGE_IMAGE...
"""
import json
import os
import re
import statistics
import subprocess
import sys

from PIL import Image

ANGLES = (0, 90, 180, 270)


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def cer(read: str, expected: str) -> float:
    a, b = normalise(read), normalise(expected)
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1] / max(1, len(b))


def turned(path: str, out_dir: str) -> dict:
    """The page turned each way (its content rotated clockwise), as PNG files."""
    stem = os.path.splitext(os.path.basename(path))[0]
    files = {}
    with Image.open(path) as image:
        page = image.convert("L")
        for angle in ANGLES:
            name = os.path.join(out_dir, f"{stem}-cw{angle}.png")
            page.rotate(-angle, expand=True).save(name)
            files[angle] = name
    return files


def ours(binary: str, files: list, level: str, orientation: str, runs: int, warmup: str):
    """text and median ms of the text request per file; `warmup` is read first in each process and not counted
    (its time holds loading the engine or the models)."""
    texts, times = {}, {f: [] for f in files}
    for _ in range(runs):
        run = subprocess.run([binary, "analyze", "--requests", "text", "--recognition-level", level,
                              "--text-orientation", orientation, "--timings", "--format", "json", warmup, *files],
                             capture_output=True, text=True, check=True)
        records = [json.loads(line) for line in run.stdout.split("\n") if line.strip()]
        for record in records[1:]:
            texts[record["image"]] = "\n".join(line["string"] for line in record.get("text", []))
            times[record["image"]].append(record["timingsMs"]["text"])
    return texts, {f: statistics.median(t) for f, t in times.items()}


def upright_times(binary: str, level: str, page: str, warmup: str, rounds: int) -> dict:
    """ms of the text request on the upright page, detection off and on: `rounds` rounds alternating the two (the
    order flipped each round), each one process reading the page 5 times after `warmup`; medians of all reads."""
    times = {"up": [], "auto": []}
    for r in range(rounds):
        for orientation in (("up", "auto") if r % 2 == 0 else ("auto", "up")):
            run = subprocess.run([binary, "analyze", "--requests", "text", "--recognition-level", level,
                                  "--text-orientation", orientation, "--timings", "--format", "json", warmup] + [page] * 5,
                                 capture_output=True, text=True, check=True)
            records = [json.loads(line) for line in run.stdout.split("\n") if line.strip()]
            times[orientation] += [record["timingsMs"]["text"] for record in records[1:]]
    return {o: statistics.median(t) for o, t in times.items()}


def tesseract(path: str) -> str:
    return subprocess.run(["tesseract", path, "stdout", "-l", "eng"], capture_output=True, text=True).stdout


def main() -> None:
    binary, out_dir, runs, pages = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    os.makedirs(out_dir, exist_ok=True)
    from rapidocr_onnxruntime import RapidOCR
    rapid = RapidOCR()
    rows = []
    upright = []
    for page in pages:
        expected = open(os.path.splitext(page)[0] + ".txt", encoding="utf-8").read()
        files = turned(page, out_dir)
        names = [files[a] for a in ANGLES]
        warmup = os.path.join(out_dir, "warmup-" + os.path.basename(files[0]))
        Image.open(files[0]).save(warmup)
        result = {}
        for level in ("fast", "accurate"):
            for orientation in ("up", "auto"):
                texts, _ = ours(binary, names, level, orientation, 1, warmup)
                result[(level, orientation)] = texts
            times = upright_times(binary, level, files[0], warmup, runs)
            for orientation in ("up", "auto"):
                upright.append((os.path.basename(page), level, orientation, times[orientation]))
        peer_tess = {f: tesseract(f) for f in names}
        peer_rapid = {}
        for f in names:
            found, _ = rapid(f)
            peer_rapid[f] = "\n".join(item[1] for item in (found or []))
        for angle in ANGLES:
            f = files[angle]
            rows.append((os.path.basename(page), angle,
                         cer(result[("fast", "up")][f], expected), cer(result[("fast", "auto")][f], expected),
                         cer(result[("accurate", "up")][f], expected), cer(result[("accurate", "auto")][f], expected),
                         cer(peer_tess[f], expected), cer(peer_rapid[f], expected)))
    print("| page | turned cw | .fast before (up) | .fast after (auto) | .accurate before (up) | .accurate after (auto) "
          "| tesseract CLI 5.3 | rapidocr 1.4.4 |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row[0]} | {row[1]}° | " + " | ".join(f"{v:.2f}" for v in row[2:]) + " |")
    print()
    print(f"Upright page, text request ms (median of {runs} alternating rounds x 5 reads), detection off (up) vs on (auto):")
    print("| page | level | up | auto | ratio |")
    print("|---|---|---|---|---|")
    by = {(p, l, o): t for p, l, o, t in upright}
    for p, l in sorted({(p, l) for p, l, _, _ in upright}):
        up, auto = by[(p, l, "up")], by[(p, l, "auto")]
        print(f"| {p} | {l} | {up:.0f} | {auto:.0f} | {auto / up:.2f} |")


if __name__ == "__main__":
    main()
