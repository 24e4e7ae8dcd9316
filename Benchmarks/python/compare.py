"""Joins two JSON-lines benchmark outputs by file and prints a side-by-side table with ratios."""
import json
import statistics
import sys


def load(paths):
    """One or more JSON-lines files (comma-separated: alternating rounds); per file, the median of the rounds' medians."""
    rounds = []
    for path in paths.split(","):
        with open(path) as f:
            rounds.append({row["file"]: row for row in map(json.loads, f) if row})
    merged = {}
    for file, row in rounds[0].items():
        rows = [r[file] for r in rounds if file in r]
        row = dict(row)
        for key in ("median_ms", "read_median_ms"):
            if all(r.get(key) is not None for r in rows):
                row[key] = statistics.median(r[key] for r in rows)
        if "stages_ms" in row:
            row["stages_ms"] = {k: statistics.median(r["stages_ms"][k] for r in rows) for k in row["stages_ms"]}
        merged[file] = row
    return merged


def main() -> None:
    title, ours_path, theirs_path, peer = sys.argv[1:5]
    ours, theirs = load(ours_path), load(theirs_path)
    print(f"\n## {title}: OpenVision vs {peer} (median ms per image)")
    print(f"{'file':34} {'ours':>9} {'peer':>9} {'ratio':>6} {'count ours/peer':>16}  {'read ours':>9} {'read peer':>9}")
    ratios, read_ratios, same, compared = [], [], 0, 0
    for file in sorted(ours):
        o, t = ours[file], theirs.get(file)
        if not t:
            continue
        ratio = o["median_ms"] / t["median_ms"]
        ratios.append(ratio)
        rr = o["read_median_ms"] / t["read_median_ms"] if o.get("read_median_ms") and t.get("read_median_ms") else float("nan")
        read_ratios.append(rr)
        # A peer row with "payloads": null has no result comparable with ours (e.g. candidates, not pages).
        comparable = t.get("payloads", t.get("text")) is not None or "payloads" not in t
        match = o.get("payloads", o.get("text")) == t.get("payloads", t.get("text"))
        compared += comparable
        same += comparable and match
        count = f"{o.get('count', '-')}/{t.get('count', '-')}" + ("" if match or not comparable else " DIFF")
        name = file.rsplit("/", 1)[-1][:34]
        print(f"{name:34} {o['median_ms']:9.2f} {t['median_ms']:9.2f} {ratio:6.2f} {count:>16}  "
              f"{o.get('read_median_ms') or float('nan'):9.2f} {t.get('read_median_ms') or float('nan'):9.2f}")
    total_o = sum(ours[f]["median_ms"] for f in ours if f in theirs)
    total_t = sum(theirs[f]["median_ms"] for f in ours if f in theirs)
    print(f"files: {len(ratios)}, identical results: {same}/{compared}; "
          f"median ratio {statistics.median(ratios):.2f}, total-time ratio {total_o / total_t:.2f} "
          f"({total_o:.1f} ms vs {total_t:.1f} ms)")


if __name__ == "__main__":
    main()
