"""Scores `openvision-bench documents` and/or `bench_documents.py` output (JSONL) against `make-page-set`'s truth.json:
per page, each table's size and every cell's place, spans and text (spaces ignored, as ../shared/checks/catalogue3
compares them), the lists' items and the title; with two files, whether both found the same table structure (cells'
places and spans) and the median times side by side.
Usage: compare_documents.py TRUTH.json OURS.jsonl [PEER.jsonl]
"""
import json
import os
import re
import statistics
import sys


def squeeze(text):
    return re.sub(r"\s+", "", text or "")


def structure(tables):
    return [sorted((c["row"], c["column"], c["rowSpan"], c["columnSpan"]) for c in t["cells"]) for t in tables]


def score(truth, result):
    """(cells right, cells in truth, problems)."""
    problems = []
    right = total = 0
    tables = result.get("tables", [])
    for k, want in enumerate(truth["tables"]):
        total += len(want["cells"])
        if k >= len(tables):
            problems.append(f"table {k} missing")
            continue
        got = tables[k]
        if (got["rows"], got["columns"]) != (want["rows"], want["columns"]):
            problems.append(f"table {k} is {got['rows']}x{got['columns']}, not {want['rows']}x{want['columns']}")
        cells = {(c["row"], c["column"]): c for c in got["cells"]}
        for c in want["cells"]:
            g = cells.get((c["row"], c["column"]))
            if g and (g["rowSpan"], g["columnSpan"]) == (c["rowSpan"], c["columnSpan"]) and squeeze(g["text"]) == squeeze(c["text"]):
                right += 1
            else:
                problems.append(f"cell {c['row']},{c['column']} {c['text']!r} → {g and (g['rowSpan'], g['columnSpan'], g['text'])}")
    if len(tables) > len(truth["tables"]):
        problems.append(f"{len(tables) - len(truth['tables'])} extra tables")
    if "lists" in result:
        got_lists = [[squeeze(i) for i in items] for items in result["lists"]]
        want_lists = [[squeeze(i) for i in items] for items in truth["lists"]]
        if got_lists != want_lists:
            problems.append(f"lists {result['lists']} != {truth['lists']}")
    if "title" in result and squeeze(result["title"]) != squeeze(truth.get("title")):
        problems.append(f"title {result['title']!r} != {truth.get('title')!r}")
    return right, total, problems


def main():
    truth = {t["file"]: t["truth"] for t in json.load(open(sys.argv[1]))}
    runs = [{os.path.basename(r["file"]): r for r in map(json.loads, open(path))} for path in sys.argv[2:]]
    names = ["ours", "peer"]
    totals = [[0, 0] for _ in runs]
    same = 0
    for file in sorted(truth):
        line = [file]
        for k, run in enumerate(runs):
            if file not in run:
                continue
            right, total, problems = score(truth[file], run[file])
            totals[k][0] += right
            totals[k][1] += total
            line.append(f"{names[k]} {right}/{total} {run[file]['median_ms'] or 0:.0f} ms" + (" " + "; ".join(problems) if problems else ""))
        if len(runs) == 2 and file in runs[0] and file in runs[1]:
            agree = structure(runs[0][file]["tables"]) == structure(runs[1][file]["tables"])
            same += agree
            line.append("same structure" if agree else "DIFFERENT structure")
        print(" | ".join(line))
    for k, (right, total) in enumerate(totals):
        print(f"{names[k]}: {right}/{total} cells right")
    if len(runs) == 2:
        files = [f for f in truth if f in runs[0] and f in runs[1]]
        ratios = [runs[0][f]["median_ms"] / runs[1][f]["median_ms"] for f in files]
        print(f"same table structure on {same}/{len(files)} pages; time ours/peer per page: median {statistics.median(ratios):.2f} "
              f"(min {min(ratios):.2f}, max {max(ratios):.2f}); medians {statistics.median(runs[0][f]['median_ms'] for f in files):.0f} ms "
              f"vs {statistics.median(runs[1][f]['median_ms'] for f in files):.0f} ms")


if __name__ == "__main__":
    main()
