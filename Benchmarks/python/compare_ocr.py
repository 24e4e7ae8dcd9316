"""The `ocr` section of scripts/bench: RecognizeTextRequest .accurate vs Python rapidocr-onnxruntime 1.4.4,
and .accurate vs .fast (Tesseract), on the scenes of `openvision-bench make-ocr-set` (truth.json).
Each input is one or more JSON-lines files (comma-separated: alternating rounds); per image the median
of the rounds' medians. Prints per image: times and their ratio, lines with the same text as the peer;
then the character error rate (edit distance / truth length, lines joined by newlines) per level and set.
Usage: compare_ocr.py TRUTH_JSON ACCURATE_JSONL RAPIDOCR_JSONL FAST_JSONL
"""
import json
import os
import statistics
import sys


def load(paths):
    rounds = []
    for path in paths.split(","):
        with open(path) as f:
            rounds.append({os.path.basename(row["file"]): row for row in map(json.loads, f) if row})
    merged = {}
    for name, row in rounds[0].items():
        row = dict(row)
        row["median_ms"] = statistics.median(r[name]["median_ms"] for r in rounds if name in r)
        merged[name] = row
    return merged


def edit_distance(a, b):
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def main() -> None:
    truth_path, accurate_path, peer_path, fast_path = sys.argv[1:5]
    truth = {row["file"]: row for row in json.load(open(truth_path))}
    accurate, peer, fast = load(accurate_path), load(peer_path), load(fast_path)

    print("\n## Text, accurate: OpenVision .accurate vs Python rapidocr-onnxruntime 1.4.4 (same PP-OCRv4 models, 2 threads; median ms per image, file -> lines)")
    print(f"{'file':22} {'ours':>8} {'peer':>8} {'ratio':>6} {'same text':>10}")
    ratios, same_lines, peer_lines = [], 0, 0
    for name in sorted(truth):
        o, p = accurate.get(name), peer.get(name)
        if not o or not p:
            continue
        ratio = o["median_ms"] / p["median_ms"]
        ratios.append(ratio)
        ours_text = [line["text"] for line in o["lines"]]
        peer_text = [line["text"] for line in p["lines"]]
        same = sum(1 for a, b in zip(ours_text, peer_text) if a == b)
        same_lines += same
        peer_lines += max(len(peer_text), len(ours_text))
        print(f"{name:22} {o['median_ms']:8.1f} {p['median_ms']:8.1f} {ratio:6.2f} {same:>4}/{max(len(peer_text), len(ours_text)):<5}")
    # Rounds alternate ours and the peer; a ratio per round and image is robust to the machine's load drifting.
    round_ratios = []
    for ours_file, peer_file in zip(accurate_path.split(","), peer_path.split(",")):
        o, p = load(ours_file), load(peer_file)
        round_ratios += [o[n]["median_ms"] / p[n]["median_ms"] for n in o if n in p]
    if round_ratios:
        print(f"median of the {len(round_ratios)} per-round, per-image ratios: {statistics.median(round_ratios):.2f}")
    if ratios:
        print(f"median ratio ours/peer: {statistics.median(ratios):.2f} (goal <= 0.8); lines with the same text: "
              f"{same_lines}/{peer_lines} ({100 * same_lines / max(peer_lines, 1):.1f}%, goal >= 95%)")

    print("\n## Text: .accurate (PP-OCRv4) vs .fast (Tesseract 5): character error rate vs truth and median ms per image")
    print(f"{'set':10} {'images':>6} {'CER accurate':>13} {'CER fast':>9} {'ms accurate':>12} {'ms fast':>8}")
    for subset in ("rendered", "photo"):
        names = [n for n, t in truth.items() if t["set"] == subset and n in accurate and n in fast]
        if not names:
            continue
        def cer(results):
            errors = sum(edit_distance("\n".join(l["text"] for l in results[n]["lines"]), "\n".join(truth[n]["lines"])) for n in names)
            return errors / sum(len("\n".join(truth[n]["lines"])) for n in names)
        ms_a = statistics.median(accurate[n]["median_ms"] for n in names)
        ms_f = statistics.median(fast[n]["median_ms"] for n in names)
        print(f"{subset:10} {len(names):6} {100 * cer(accurate):12.1f}% {100 * cer(fast):8.1f}% {ms_a:12.1f} {ms_f:8.1f}")


if __name__ == "__main__":
    main()
