"""Peer for the catalogue benchmark: the same OpenCV calls with the same parameters from Python
(opencv-contrib-python-headless 4.10, which has cv2.saliency), file -> result, as a user would write
them: cv2.imread(path, IMREAD_GRAYSCALE) at full size, then each request's pipeline (see the
"Algorithm" headers of Sources/CNative/ov_contours.cpp, ov_horizon.cpp, ov_saliency.cpp, ov_textrects.cpp).
textrects groups the components into lines in plain Python (the OpenCV calls are the same).
document is not our algorithm (ours is the rectangles backend with sub-pixel refinement): it is the classic
document finder a Python user writes (blur, Canny, dilate, findContours, approxPolyDP, the largest convex
quadrilateral), at our working size (longer side <= 1024 px); its "corners" (pixels, TL TR BR BL) are compared
with the truth on the warped-page fixtures (openvision-bench make-document-set).
document-calls is ours: the same OpenCV calls as our document segmentation (three binarisations, the same contour
filtering), everything but the sub-pixel refinement, which has no OpenCV call.
Usage: bench_catalogue.py RUNS REQUEST FILE...   (REQUEST: contours|horizon|saliency|objectness|textrects|textrects-cv|document|
document-calls; textrects-cv: only the OpenCV calls of textrects, no grouping)
"""
import json
import math
import statistics
import sys
import time

import cv2
import numpy as np


def shrink(g, max_side):
    longer = max(g.shape)
    if longer <= max_side:
        return g
    f = max_side / longer
    return cv2.resize(g, (max(1, round(g.shape[1] * f)), max(1, round(g.shape[0] * f))), interpolation=cv2.INTER_AREA)


def contours(g):
    w = shrink(g, 512)
    if int(w.max()) - int(w.min()) < 2:
        return 0, ["0", "0"]
    a = np.clip(w.astype(np.float32) * 2.0 - 127.5, 0, 255).round().astype(np.uint8)  # contrast 2 about 0.5
    _, b = cv2.threshold(a, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    c, h = cv2.findContours(b, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    top = 0 if h is None else int((h[0][:, 3] < 0).sum())
    return len(c), [str(len(c)), str(top)]


def horizon(g):
    w = shrink(g, 640)
    e = cv2.Canny(cv2.GaussianBlur(w, (0, 0), 1.5), 30, 90)
    threshold = max(10, w.shape[1] // 3)
    lines = cv2.HoughLines(e, 1, np.pi / 720, threshold, min_theta=np.pi / 4, max_theta=3 * np.pi / 4)
    if lines is None:
        return 0, ["none"]
    rho, theta = lines[0][0][:2]
    ys, xs = np.nonzero(e)
    near = np.abs(xs * math.cos(theta) + ys * math.sin(theta) - rho) <= 2
    if near.sum() < threshold or xs[near].max() - xs[near].min() < 0.5 * w.shape[1]:
        return 0, ["none"]
    vx, vy = cv2.fitLine(np.stack([xs[near], ys[near]], 1).astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01)[:2, 0]
    a = math.atan2(-vy * g.shape[0] / w.shape[0], vx * g.shape[1] / w.shape[1])
    a = a - math.pi if a > math.pi / 2 else a + math.pi if a <= -math.pi / 2 else a
    if abs(a) > math.pi / 4 + 1e-9:  # steeper than 45 degrees: no horizon
        return 0, ["none"]
    return 1, [f"{round(math.degrees(a), 1) + 0.0:.1f}"]  # + 0.0: no "-0.0"


def salient_boxes(m):
    # As OpenVision's convertTo(CV_8U, 255): rounded, not truncated (astype would move the Otsu level by a
    # gray level on some maps, and with it a region at the threshold: giraffe-x4 and person-x4 counted one off).
    b = cv2.convertScaleAbs(m, alpha=255)
    otsu, _ = cv2.threshold(b, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    _, binary = cv2.threshold(b, max(otsu, 0.25 * 255), 255, cv2.THRESH_BINARY)
    n, _, stats, _ = cv2.connectedComponentsWithStats(binary, 8, cv2.CV_32S)
    count = int((stats[1:, cv2.CC_STAT_AREA] >= max(1, 68 * 68 // 100)).sum())
    return count, [str(count)]


SR = cv2.saliency.StaticSaliencySpectralResidual_create()
SR.setImageWidth(68)
SR.setImageHeight(68)
FG = cv2.saliency.StaticSaliencyFineGrained_create()


def saliency(g):
    small = cv2.resize(g, (68, 68), interpolation=cv2.INTER_AREA)
    if int(small.max()) - int(small.min()) < 2:
        return 0, ["0"]
    _, m = SR.computeSaliency(small)
    return salient_boxes(np.maximum(m / m.max(), 0))


def objectness(g):
    small = shrink(g, 272)
    if int(small.max()) - int(small.min()) < 2:
        return 0, ["0"]
    _, m = FG.computeSaliency(small)
    m = cv2.resize(m.astype(np.float32), (68, 68), interpolation=cv2.INTER_AREA)
    return salient_boxes(np.maximum(m / m.max(), 0))


def text_lines(binary):
    n, _, stats, _ = cv2.connectedComponentsWithStats(binary, 8, cv2.CV_32S)
    max_h = max(6, min(binary.shape) // 6)
    parts = []
    for x, y, w, h, area in stats[1:]:
        if h > max_h or w > 2 * max(h, 6) or w * h < 4:
            continue
        fill = area / (w * h)
        if h >= 6 and (fill < 0.15 or (fill > 0.9 and 2 * w > h)):
            continue
        parts.append([x, y, x + w, y + h])
    parts.sort(key=lambda b: (-(b[3] - b[1]), b[0], b[1]))
    chars = []  # [x0, y0, x1, y1, core height]
    for p in parts:
        for c in chars:
            ov = max(0, min(p[2], c[2]) - max(p[0], c[0]))
            gap = max(p[1] - c[3], c[1] - p[3])
            merged = max(c[3], p[3]) - min(c[1], p[1])
            if (ov >= 0.6 * min(p[2] - p[0], c[2] - c[0]) and gap <= max(2, c[4] // 2) and p[3] - p[1] < c[4]
                    and merged <= min(max_h, 1.6 * c[4])):
                c[:4] = [min(c[0], p[0]), min(c[1], p[1]), max(c[2], p[2]), max(c[3], p[3])]
                break
        else:
            if p[3] - p[1] >= 6:
                chars.append(list(p) + [p[3] - p[1]])
    chars = [c[:4] for c in sorted(chars, key=lambda b: (b[0], b[1]))]
    used = [False] * len(chars)
    lines = []
    for i, ci in enumerate(chars):
        if used[i]:
            continue
        used[i] = True
        line, box, last = [ci], list(ci), ci
        for j in range(i + 1, len(chars)):
            if used[j]:
                continue
            a, b = last, chars[j]
            hmin, hmax = min(a[3] - a[1], b[3] - b[1]), max(a[3] - a[1], b[3] - b[1])
            if b[0] - a[2] > 1.2 * hmax:
                if b[0] - box[2] > 1.2 * (box[3] - box[1]):
                    break
                continue
            if hmax > 2 * hmin or max(0, min(a[3], b[3]) - max(a[1], b[1])) < 0.5 * hmin:
                continue
            line.append(b)
            box = [min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3])]
            used[j], last = True, b
        if len(line) < 3:
            continue
        hs = np.array([c[3] - c[1] for c in line], float)
        bottoms = np.array([c[3] for c in line], float)
        if bottoms.std() / hs.mean() > 0.25 or box[3] - box[1] > 1.6 * hs.mean():
            continue
        lines.append((box, len(line)))
    return lines


def textrects(g):
    w = shrink(g, 2048)
    if int(w.max()) - int(w.min()) < 12:
        return 0, ["0", "0"]
    block = max(15, (min(w.shape) // 16) | 1)
    dark = cv2.adaptiveThreshold(w, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 12)
    light = cv2.adaptiveThreshold(w, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -12)
    lines = text_lines(dark)
    for l in text_lines(light):
        for k, m in enumerate(lines):
            inter = max(0, min(l[0][2], m[0][2]) - max(l[0][0], m[0][0])) * max(0, min(l[0][3], m[0][3]) - max(l[0][1], m[0][1]))
            smaller = min((l[0][2] - l[0][0]) * (l[0][3] - l[0][1]), (m[0][2] - m[0][0]) * (m[0][3] - m[0][1]))
            if inter > 0.5 * smaller:
                if l[1] > m[1]:
                    lines[k] = l
                break
        else:
            lines.append(l)
    return len(lines), [str(len(lines)), str(sum(n for _, n in lines))]


def textrects_cv(g):
    """Only the OpenCV calls of textrects (thresholds and components, no grouping): a lower bound."""
    w = shrink(g, 2048)
    block = max(15, (min(w.shape) // 16) | 1)
    n = 0
    for mode, offset in ((cv2.THRESH_BINARY_INV, 12), (cv2.THRESH_BINARY, -12)):
        n += cv2.connectedComponentsWithStats(cv2.adaptiveThreshold(w, 255, cv2.ADAPTIVE_THRESH_MEAN_C, mode, block, offset),
                                              8, cv2.CV_32S)[0]
    return n, [str(n)]


def order_corners(q):
    """TL, TR, BR, BL of a convex quadrilateral (image coordinates, y down), as Vision names them upright."""
    c = q.mean(0)
    q = sorted(q, key=lambda p: math.atan2(p[1] - c[1], p[0] - c[0]))  # clockwise from the left on screen
    start = min(range(4), key=lambda i: q[i][0] + q[i][1])              # top-left: smallest x + y
    return [q[(start + k) % 4] for k in range(4)]


def document(g):
    """The classic OpenCV document finder: blur, Canny, dilate, external contours by area, approxPolyDP at 2 % of
    the perimeter; the largest convex quadrilateral of at least 4 % of the image (short side >= 20 %) is the page."""
    w = shrink(g, 1024)
    e = cv2.dilate(cv2.Canny(cv2.GaussianBlur(w, (5, 5), 0), 50, 150), np.ones((3, 3), np.uint8))
    cs, _ = cv2.findContours(e, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    h, wd = w.shape
    for c in sorted(cs, key=cv2.contourArea, reverse=True)[:10]:
        a = cv2.approxPolyDP(c, 0.02 * cv2.arcLength(c, True), True)
        if len(a) != 4 or not cv2.isContourConvex(a) or cv2.contourArea(a) < 0.04 * h * wd:
            continue
        q = a.reshape(4, 2).astype(np.float64)
        if q[:, 0].min() <= 1 and q[:, 1].min() <= 1 and q[:, 0].max() >= wd - 2 and q[:, 1].max() >= h - 2:
            continue  # the frame
        sides = [np.hypot(*(q[i] - q[(i + 1) % 4])) for i in range(4)]
        if min(sides) < 0.2 * min(h, wd):
            continue
        sx, sy = g.shape[1] / wd, g.shape[0] / h
        corners = [[round(float((p[0] + 0.5) * sx - 0.5), 1), round(float((p[1] + 0.5) * sy - 0.5), 1)] for p in order_corners(q)]
        return 1, ["found"], corners
    return 0, ["none"], None


def _signed_area(q):
    return 0.5 * sum(q[i][0] * q[(i + 1) % 4][1] - q[(i + 1) % 4][0] * q[i][1] for i in range(4))


def _side_lengths(q):
    a = (np.hypot(*(q[1] - q[0])) + np.hypot(*(q[3] - q[2]))) / 2
    b = (np.hypot(*(q[2] - q[1])) + np.hypot(*(q[0] - q[3]))) / 2
    return min(a, b), max(a, b)


def _max_angle_deviation(q):
    worst = 0.0
    for i in range(4):
        a, b = q[(i + 3) % 4] - q[i], q[(i + 1) % 4] - q[i]
        na, nb = np.hypot(*a), np.hypot(*b)
        if na <= 0 or nb <= 0:
            return 90.0
        c = min(1.0, max(-1.0, float(a @ b) / (na * nb)))
        worst = max(worst, abs(math.degrees(math.acos(c)) - 90))
    return worst


def _passes_geometry(q, min_side, slack, min_aspect=0.25, max_aspect=1.0, tolerance=45.0):
    short, long_ = _side_lengths(q)
    if long_ <= 0 or short < min_side * (1 - slack):
        return False
    if any(np.hypot(*(q[(i + 1) % 4] - q[i])) < 0.5 * short * (1 - slack) for i in range(4)):
        return False
    aspect = short / long_
    if aspect < min_aspect * (1 - slack) - 1e-6 or aspect > min(1.0, max_aspect * (1 + slack)) + 1e-6:
        return False
    return _max_angle_deviation(q) <= tolerance + slack * 60 + 1e-6


def _touches_border(q, w, h, margin):
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        if (a[0] <= margin and b[0] <= margin) or (a[1] <= margin and b[1] <= margin) or \
                (a[0] >= w - 1 - margin and b[0] >= w - 1 - margin) or (a[1] >= h - 1 - margin and b[1] >= h - 1 - margin):
            return True
    return False


def _collect_quads(binary, min_side, margin):
    """ov_rectangles.cpp collectQuads: contours whose outline (or convex hull) is a convex quadrilateral."""
    cs, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    h, w = binary.shape
    min_perimeter = 0.9 * 2 * (min_side + min_side / 1.0)
    out = []
    for c in cs:
        if len(c) < 4:
            continue
        _, _, bw, bh = cv2.boundingRect(c)
        if bw < 0.85 * min_side or bh < 0.85 * min_side:
            continue
        area = abs(cv2.contourArea(c))
        if area < 0.5 * min_side * min_side:
            continue
        perimeter = cv2.arcLength(c, True)
        if perimeter < min_perimeter:
            continue
        found, q = False, None
        for hull in (False, True):
            shape = cv2.convexHull(c) if hull else c
            length = cv2.arcLength(shape, True) if hull else perimeter
            for eps in (0.02, 0.035):
                approx = cv2.approxPolyDP(shape, eps * length, True)
                if len(approx) <= 4 or len(approx) > 8:
                    break
            if len(approx) != 4 or not cv2.isContourConvex(approx):
                continue
            q = approx.reshape(4, 2).astype(np.float64)
            quad_area = abs(_signed_area(q))
            if quad_area <= 0:
                continue
            ratio = area / quad_area
            found = (0.75 if hull else 0.85) < ratio < 1.2
            if found:
                break
        if found and not _touches_border(q, w, h, margin) and _passes_geometry(q, min_side, 0.15):
            out.append(q)
    return out


def document_calls(g):
    """Our document segmentation's OpenCV calls, from Python (ov_rectangles.cpp with the document's parameters:
    aspect 0.25...1, 45 degrees, minimum size 0.2, detection side 320): the fine image (longer side <= 1024,
    INTER_AREA, Gaussian 5x5 sigma 1), the coarse one (pyrDown halvings, then bilinear to <= 320), its three
    binarisations (Canny 30/90 dilated 3x3; Otsu opened 3x3; local mean, block min side / 8 | 1, C 4), each one's
    contour quadrilaterals as collectQuads keeps them, raw duplicates (corners within 1.5 px) dropped. Ours then
    refines each candidate sub-pixel, which has no OpenCV call (not done here); the count is the candidates'."""
    fine = cv2.GaussianBlur(shrink(g, 1024), (5, 5), 1.0)
    reduced = fine
    while max(reduced.shape) >= 2 * 320:
        reduced = cv2.pyrDown(reduced)
    f = 320 / max(reduced.shape)
    coarse = reduced if f >= 1 else cv2.resize(
        reduced, (max(1, round(reduced.shape[1] * f)), max(1, round(reduced.shape[0] * f))), interpolation=cv2.INTER_LINEAR)
    shorter = min(coarse.shape)
    min_side, margin = max(8.0, 0.2 * shorter), max(3.0, 0.01 * shorter)
    kernel = np.ones((3, 3), np.uint8)
    edges = cv2.dilate(cv2.Canny(coarse, 30, 90), kernel)
    _, otsu = cv2.threshold(coarse, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    otsu = cv2.morphologyEx(otsu, cv2.MORPH_OPEN, kernel)
    local = cv2.adaptiveThreshold(coarse, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, max(3, (shorter // 8) | 1), 4)
    unique = []
    for q in _collect_quads(edges, min_side, margin) + _collect_quads(otsu, min_side, margin) + _collect_quads(local, min_side, margin):
        if not any(min(np.hypot(*(np.roll(u, s, axis=0) - q).T).max() for s in range(4)) <= 1.5 for u in unique):
            unique.append(q)
    return len(unique), None, None


def main() -> None:
    runs, name = int(sys.argv[1]), sys.argv[2]
    fn = {"contours": contours, "horizon": horizon, "saliency": saliency, "objectness": objectness, "textrects": textrects,
          "textrects-cv": textrects_cv, "document": document,
          "document-calls": document_calls}[name]
    for path in sys.argv[3:]:
        times, result = [], (0, [])
        for i in range(runs + 1):  # run 0 warms up
            t0 = time.perf_counter()
            result = fn(cv2.imread(path, cv2.IMREAD_GRAYSCALE))
            if i:
                times.append((time.perf_counter() - t0) * 1000)
        row = {"file": path, "median_ms": statistics.median(times), "count": result[0], "payloads": result[1]}
        if name == "document":
            row["corners"] = result[2]
        if name == "document-calls":
            row["payloads"] = None  # candidates, not pages: no result to compare
        print(json.dumps(row, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
