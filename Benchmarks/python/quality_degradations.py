"""Monotonicity of OpenVision's composed quality scores under degradations (issue 34's measure).

faces BENCH OUT FILE...       DetectFaceCaptureQualityRequest: for each file, the faces BlazeFace (full range) finds on
                              it are measured on the file and on degraded copies (same boxes, `openvision-bench
                              facequality`): Gaussian blur sigma 1, 2, 3, 4, 6, 8; darkening x0.8, 0.6, 0.45, 0.3, 0.2;
                              Gaussian noise sigma 4, 8, 12, 16, 24; the head turned further by warping (each face's
                              middle pushed sideways, towards the side it turns to, by 8, 16, 24, 32, 40 % of its
                              half-width, edges fixed); downscaling x0.75,
                              0.5, 0.35, 0.25, 0.15 (area).
aesthetics BENCH OUT FILE...  CalculateImageAestheticsScoresRequest on each file and degraded copies (`openvision-bench
                              aesthetics`): blur as above; noise as above; JPEG quality 50, 30, 15, 10, 5 (the shared JPEGs
                              are themselves around quality 75-90: re-encoding them at 90 or 70 smooths their own
                              blocks, not a damage); darkening
                              as above; brightening x1.25, 1.5, 2, 2.5, 3 (clipped) from the photo as shot; and
                              overexposure: the same gains from the photo at a normal exposure (level 0: a darker photo
                              brought up to a mean luma of 0.46, mid-grey in sRGB; brighter photos as shot), since
                              brightening an underexposed photo as shot first exposes it better.
utility BENCH OUT PAGES... -- PHOTOS...   isUtility on each file: right when true for the pages, false for the photos.

For each degradation: the share of (item, level) cases scoring below the undegraded item ("lowered"), the share scoring
below the previous level ("stepwise"), and the mean and smallest Spearman correlation between level (0 = undegraded)
and score per item (negated, so 1 is perfectly decreasing). Degradations are seeded (noise: numpy default_rng(0)).
"""
import json
import os
import subprocess
import sys

import cv2
import numpy as np

BLUR = [1, 2, 3, 4, 6, 8]
DARK = [0.8, 0.6, 0.45, 0.3, 0.2]
NOISE = [4, 8, 12, 16, 24]
WARP = [0.08, 0.16, 0.24, 0.32, 0.40]
DOWN = [0.75, 0.5, 0.35, 0.25, 0.15]
JPEG = [50, 30, 15, 10, 5]
BRIGHT = [1.25, 1.5, 2.0, 2.5, 3.0]


def blur(img, s):
    return cv2.GaussianBlur(img, (0, 0), s)


def scale(img, k):
    return np.clip(img.astype(np.float64) * k, 0, 255).round().astype(np.uint8)


def noise(img, s):
    rng = np.random.default_rng(0)
    return np.clip(img.astype(np.float64) + rng.normal(0, s, img.shape), 0, 255).round().astype(np.uint8)


def jpeg(img, q):
    ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def normal_exposure(img):
    """The photo at a normal exposure: scaled up to a mean luma (BT.601) of 0.46, mid-grey in sRGB, when darker
    (clipped; gain at most 3); brighter photos as they are."""
    luma = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float64).mean() / 255
    return scale(img, min(3.0, 0.46 / luma)) if 0 < luma < 0.46 else img


def down(img, k):
    h, w = img.shape[:2]
    return cv2.resize(img, (max(1, round(w * k)), max(1, round(h * k))), interpolation=cv2.INTER_AREA)


def warp(img, boxes, a, sides):
    """Each face's middle pushed sideways by a x its half-width (cos-shaped, the box's edges fixed): the nose moves
    towards one cheek as when the head turns; towards the side the face already turns to (`sides`: +1 or -1 from the
    yaw measured on the original), so that it turns further."""
    h, w = img.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    mx, my = xs.copy(), ys.copy()
    for (x, y, bw, bh), side in zip(boxes, sides):
        cx, cy, rx, ry = x + bw / 2, y + bh / 2, bw * 0.6, bh * 0.6
        u, v = (xs - cx) / rx, (ys - cy) / ry
        inside = (np.abs(u) < 1) & (np.abs(v) < 1)
        shift = side * a * (bw / 2) * np.cos(np.pi * u / 2) * np.cos(np.pi * v / 2)
        mx = np.where(inside, mx - shift, mx)
    return cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def spearman(a, b):
    ra = np.argsort(np.argsort(a, kind="stable"), kind="stable").astype(float)
    # average ranks for ties in b
    b = np.asarray(b, dtype=float)
    order = np.argsort(b, kind="stable")
    rb = np.empty(len(b))
    i = 0
    while i < len(b):
        j = i
        while j + 1 < len(b) and b[order[j + 1]] == b[order[i]]:
            j += 1
        rb[order[i:j + 1]] = (i + j) / 2
        i = j + 1
    if np.std(ra) == 0 or np.std(rb) == 0:
        return 0.0
    return float(np.corrcoef(ra, rb)[0, 1])


def run(bench, *args):
    out = subprocess.run([bench, *args], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def summarize(name, series):
    """series: list of score lists, level 0 first. With QUALITY_SERIES=FILE set, each series is appended to FILE as a
    JSON line (kind, scores) for looking at the items one by one."""
    if os.environ.get("QUALITY_SERIES"):
        with open(os.environ["QUALITY_SERIES"], "a") as f:
            for s in series:
                f.write(json.dumps({"kind": name, "scores": s}) + "\n")
    lowered = stepwise = cases = 0
    rhos = []
    for s in series:
        for i in range(1, len(s)):
            cases += 1
            lowered += s[i] < s[0]
            stepwise += s[i] < s[i - 1]
        rhos.append(-spearman(list(range(len(s))), s))
    print(f"  {name:12s} items {len(series):3d}  lowered {100 * lowered / max(cases, 1):5.1f} %  stepwise "
          f"{100 * stepwise / max(cases, 1):5.1f} %  Spearman mean {np.mean(rhos):.3f}  min {np.min(rhos):.3f}",
          flush=True)
    return {"lowered": lowered / max(cases, 1), "stepwise": stepwise / max(cases, 1), "spearman_mean": float(np.mean(rhos)),
            "spearman_min": float(np.min(rhos)), "items": len(series), "cases": cases}


def faces(bench, out, files):
    results = {k: [] for k in ["blur", "darken", "noise", "turn", "downscale"]}
    for path in files:
        img = cv2.imread(path, cv2.IMREAD_COLOR)
        base = os.path.join(out, os.path.splitext(os.path.basename(path))[0])
        first = run(bench, "facequality", path)[0]
        boxes = [f["box"] for f in first["faces"]]
        sides = [1 if f.get("factors", {}).get("yaw", 0) >= 0 else -1 for f in first["faces"]]
        if not boxes:
            print(f"  {path}: no face", file=sys.stderr)
            continue
        variants = {
            "blur": [blur(img, s) for s in BLUR], "darken": [scale(img, k) for k in DARK],
            "noise": [noise(img, s) for s in NOISE], "turn": [warp(img, boxes, a, sides) for a in WARP],
            "downscale": [down(img, k) for k in DOWN],
        }
        names = []
        for kind, images in variants.items():
            for i, im in enumerate(images):
                name = f"{base}-{kind}{i + 1}.png"
                cv2.imwrite(name, im)
                names.append((kind, name))
        rows = run(bench, "facequality", path, *[n for _, n in names])
        by_file = {r["file"]: r for r in rows}
        for f in range(len(boxes)):
            s0 = by_file[path]["faces"][f]["score"]
            if s0 <= 0:
                continue
            for kind in variants:
                results[kind].append([s0] + [by_file[n]["faces"][f]["score"] for k, n in names if k == kind])
        for _, n in names:
            os.remove(n)
        print(f"  {path}: {len(boxes)} faces, scores "
              + " ".join(f"{by_file[path]['faces'][f]['score']:.3f}" for f in range(len(boxes))), flush=True)
    print("Face capture quality (composed score) under degradations:")
    return {k: summarize(k, v) for k, v in results.items() if v}


def aesthetics(bench, out, files):
    results = {k: [] for k in ["blur", "noise", "jpeg", "darken", "brighten", "overexpose"]}
    for path in files:
        img = cv2.imread(path, cv2.IMREAD_COLOR)
        base = os.path.join(out, os.path.splitext(os.path.basename(path))[0])
        normal = normal_exposure(img)
        variants = {
            "blur": [blur(img, s) for s in BLUR], "noise": [noise(img, s) for s in NOISE],
            "jpeg": [jpeg(img, q) for q in JPEG], "darken": [scale(img, k) for k in DARK],
            "brighten": [scale(img, k) for k in BRIGHT],
            "overexpose": [normal] + [scale(normal, k) for k in BRIGHT],
        }
        names = []
        for kind, images in variants.items():
            for i, im in enumerate(images):
                name = f"{base}-{kind}{i + 1}.png"
                cv2.imwrite(name, im)
                names.append((kind, name))
        rows = run(bench, "aesthetics", path, *[n for _, n in names])
        by_file = {r["file"]: r for r in rows}
        s0 = by_file[path]["score"]
        for kind in variants:
            scores = [by_file[n]["score"] for k, n in names if k == kind]
            # overexpose's first image is its level 0 (the photo at a normal exposure), not the photo as shot.
            results[kind].append(scores if kind == "overexpose" else [s0] + scores)
        for _, n in names:
            os.remove(n)
        print(f"  {path}: score {s0:.3f} factors {json.dumps(by_file[path]['factors'], sort_keys=True)}", flush=True)
    print("Aesthetics overallScore (composed) under degradations:")
    return {k: summarize(k, v) for k, v in results.items()}


def utility(bench, files):
    split = files.index("--")
    pages, photos = files[:split], files[split + 1:]
    rows = run(bench, "aesthetics", *pages, *photos)
    right = 0
    for r in rows:
        want = r["file"] in pages
        right += r["isUtility"] == want
        print(f"  {'page ' if want else 'photo'} {os.path.basename(r['file']):32s} isUtility {r['isUtility']!s:5s} "
              f"text {r['textCoverage']:.3f} lines {r['lines']:3d} flat {r['flat']:.2f} score {r['score']:.2f}"
              + ("" if r["isUtility"] == want else "  WRONG"))
    print(f"isUtility right on {right} of {len(rows)} ({len(pages)} pages, {len(photos)} photos)")
    return right == len(rows)


if __name__ == "__main__":
    mode, bench, out, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    os.makedirs(out, exist_ok=True)
    if mode == "faces":
        print(json.dumps(faces(bench, out, files), sort_keys=True))
    elif mode == "aesthetics":
        print(json.dumps(aesthetics(bench, out, files), sort_keys=True))
    elif mode == "utility":
        sys.exit(0 if utility(bench, files) else 1)
