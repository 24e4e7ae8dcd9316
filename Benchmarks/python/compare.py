"""Joins two JSON-lines benchmark outputs by file and prints a side-by-side table with ratios."""
import json
import statistics
import sys


def load(path):
    with open(path) as f:
        return {row["file"]: row for row in map(json.loads, f) if row}


def main() -> None:
    title, ours_path, theirs_path, peer = sys.argv[1:5]
    ours, theirs = load(ours_path), load(theirs_path)
    print(f"\n## {title}: OpenVision vs {peer} (median ms per image)")
    print(f"{'file':34} {'ours':>9} {'peer':>9} {'ratio':>6} {'count ours/peer':>16}  {'read ours':>9} {'read peer':>9}")
    ratios, read_ratios, same = [], [], 0
    for file in sorted(ours):
        o, t = ours[file], theirs.get(file)
        if not t:
            continue
        ratio = o["median_ms"] / t["median_ms"]
        ratios.append(ratio)
        rr = o.get("read_median_ms", 0) / t["read_median_ms"] if t.get("read_median_ms") else float("nan")
        read_ratios.append(rr)
        match = o.get("payloads", o.get("text")) == t.get("payloads", t.get("text"))
        same += match
        count = f"{o.get('count', '-')}/{t.get('count', '-')}" + ("" if match else " DIFF")
        name = file.rsplit("/", 1)[-1][:34]
        print(f"{name:34} {o['median_ms']:9.2f} {t['median_ms']:9.2f} {ratio:6.2f} {count:>16}  "
              f"{o.get('read_median_ms', float('nan')):9.2f} {t.get('read_median_ms', float('nan')):9.2f}")
    total_o = sum(ours[f]["median_ms"] for f in ours if f in theirs)
    total_t = sum(theirs[f]["median_ms"] for f in ours if f in theirs)
    print(f"files: {len(ratios)}, identical results: {same}/{len(ratios)}; "
          f"median ratio {statistics.median(ratios):.2f}, total-time ratio {total_o / total_t:.2f} "
          f"({total_o:.1f} ms vs {total_t:.1f} ms)")


if __name__ == "__main__":
    main()
