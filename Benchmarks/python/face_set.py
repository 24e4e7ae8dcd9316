#!/usr/bin/env python3
"""A face set with known boxes, and recall / precision at IoU 0.5 of face detectors on it.

    face_set.py make SHARED_IMAGES OUT_DIR         # writes OUT_DIR/*.jpg and OUT_DIR/truth.json
    face_set.py score OUT_DIR OPENVISION [REVISION ...]   # runs `openvision analyze --requests faces --face-revision R`
    face_set.py mediapipe OUT_DIR                  # the same score for mp.solutions.face_detection (needs mediapipe)

The set: the astronaut's face (shared astronaut.png, hand-labelled box x=55 y=50 w=100 h=98 px) pasted at known
scales (face 28...180 px), rotations (0...90°) and mirrored, one or two per image, on the face-free shared photos
(dog, eagle, giraffe, horses), plus the astronaut photo itself and the face-free photos as negatives. A rotated
face's true box is the face-sized square about its centre (what a detector that finds it reports), not the
rotated square's bounding box. Deterministic (seeded).
"""
import json
import os
import subprocess
import sys

import numpy as np

FACE = (55.0, 50.0, 100.0, 98.0)  # astronaut.png, pixels, top-left origin
BACKGROUNDS = ["dog.jpg", "eagle.jpg", "giraffe.jpg", "horses.jpg"]
SIZES = [28, 40, 56, 80, 120, 180]
ANGLES = [0, 15, -30, 45, 90]


def make(shared, out):
    import cv2
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    astronaut = cv2.imread(os.path.join(shared, "astronaut.png"))
    truth = {}
    astro_name = "astronaut.jpg"
    cv2.imwrite(os.path.join(out, astro_name), astronaut, [cv2.IMWRITE_JPEG_QUALITY, 95])
    truth[astro_name] = [list(FACE)]
    for bg_name in BACKGROUNDS:
        bg = cv2.imread(os.path.join(shared, bg_name))
        name = "negative-" + bg_name
        cv2.imwrite(os.path.join(out, name), bg, [cv2.IMWRITE_JPEG_QUALITY, 95])
        truth[name] = []
    index = 0
    fx, fy, fw, fh = FACE
    fcx, fcy = fx + fw / 2, fy + fh / 2
    for size in SIZES:
        for angle in ANGLES:
            for mirror in (False, True):
                if mirror and angle not in (0, 45):
                    continue
                bg = cv2.imread(os.path.join(shared, BACKGROUNDS[index % len(BACKGROUNDS)])).copy()
                H, W = bg.shape[:2]
                count = 2 if (index % 3 == 0 and size <= 80) else 1
                boxes = []
                for _ in range(count):
                    for _attempt in range(50):
                        s = size / fw  # face width → size px
                        cx = rng.uniform(size, W - size)
                        cy = rng.uniform(size, H - size)
                        box = [cx - fw * s / 2, cy - fh * s / 2, fw * s, fh * s]
                        if all(iou(box, b) == 0 and abs(cx - (b[0] + b[2] / 2)) > size * 1.6 for b in boxes):
                            break
                    src = cv2.flip(astronaut, 1) if mirror else astronaut
                    c = (W - fcx if False else fcx, fcy)
                    if mirror:
                        c = (astronaut.shape[1] - fcx, fcy)
                    # face centre → (cx, cy), scaled by s, rotated counter-clockwise by angle (as seen)
                    M = cv2.getRotationMatrix2D(c, angle, s)
                    M[0, 2] += cx - c[0]
                    M[1, 2] += cy - c[1]
                    warped = cv2.warpAffine(src, M, (W, H), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
                    mask = cv2.warpAffine(np.full(src.shape[:2], 255, np.uint8), M, (W, H))
                    bg[mask > 127] = warped[mask > 127]
                    boxes.append(box)
                name = f"face-{index:02d}-s{size}-r{angle}{'-m' if mirror else ''}.jpg"
                cv2.imwrite(os.path.join(out, name), bg, [cv2.IMWRITE_JPEG_QUALITY, 95])
                truth[name] = boxes
                index += 1
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)
    print(f"{len(truth)} images, {sum(len(v) for v in truth.values())} faces in {out}")


def iou(a, b):
    ix = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    iy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if ix <= 0 or iy <= 0:
        return 0.0
    inter = ix * iy
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def score(truth, found):
    """Greedy matching at IoU 0.5, best-scoring detections first: (tp, fp, fn)."""
    tp = fp = fn = 0
    for name, boxes in truth.items():
        dets = sorted(found.get(name, []), key=lambda d: -d[1])
        used = set()
        for box, _ in dets:
            best, best_iou = None, 0.5
            for i, t in enumerate(boxes):
                if i not in used and iou(box, t) >= best_iou:
                    best, best_iou = i, iou(box, t)
            if best is None:
                fp += 1
            else:
                used.add(best)
                tp += 1
        fn += len(boxes) - len(used)
    return tp, fp, fn


def report(label, tp, fp, fn):
    recall = tp / max(1, tp + fn)
    precision = tp / max(1, tp + fp)
    print(f"{label:<28} recall {recall:.3f}  precision {precision:.3f}  (tp {tp}, fp {fp}, fn {fn})")
    return {"label": label, "recall": recall, "precision": precision, "tp": tp, "fp": fp, "fn": fn}


def score_openvision(out, binary, revisions):
    truth = json.load(open(os.path.join(out, "truth.json")))
    files = [os.path.join(out, n) for n in sorted(truth)]
    rows = []
    for revision in revisions:
        r = subprocess.run([binary, "analyze", "--requests", "faces", "--face-revision", revision, *files],
                           capture_output=True, text=True)
        found = {}
        for line in r.stdout.splitlines():
            line = line.strip()
            if not line.startswith("{"):
                continue
            j = json.loads(line)
            name = os.path.basename(j["image"])
            found[name] = [([f["box"]["pixels"][k] for k in ("x", "y", "width", "height")], f["confidence"]) for f in j.get("faces") or []]
        rows.append(report(f"openvision {revision}", *score(truth, found)))
    return rows


def score_mediapipe(out):
    import cv2
    import mediapipe as mp
    truth = json.load(open(os.path.join(out, "truth.json")))
    rows = []
    for selection, label in ((0, "mediapipe short range"), (1, "mediapipe full range")):
        found = {}
        with mp.solutions.face_detection.FaceDetection(model_selection=selection) as detector:
            for name in sorted(truth):
                img = cv2.imread(os.path.join(out, name))
                H, W = img.shape[:2]
                r = detector.process(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
                found[name] = []
                for d in r.detections or []:
                    b = d.location_data.relative_bounding_box
                    found[name].append(([b.xmin * W, b.ymin * H, b.width * W, b.height * H], d.score[0]))
        rows.append(report(label, *score(truth, found)))
    return rows


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "score":
        score_openvision(sys.argv[2], sys.argv[3], sys.argv[4:] or ["hog", "blazeface-short", "blazeface-full"])
    elif sys.argv[1] == "score-bench":
        # face_set.py score-bench OUT_DIR OPENVISION_BENCH REVISION...: the same through `openvision-bench faces 1 R FILE...`
        out, bench = sys.argv[2], sys.argv[3]
        truth = json.load(open(os.path.join(out, "truth.json")))
        for revision in sys.argv[4:]:
            r = subprocess.run([bench, "faces", "1", revision, *[os.path.join(out, n) for n in sorted(truth)]], capture_output=True, text=True)
            found = {}
            for line in r.stdout.splitlines():
                j = json.loads(line)
                found[os.path.basename(j["file"])] = [(b[:4], b[4]) for b in j.get("boxes", [])]
            report(f"openvision {revision}", *score(truth, found))
    elif sys.argv[1] == "mediapipe":
        score_mediapipe(sys.argv[2])
