#!/usr/bin/env python3
"""Vision's 76 face landmarks from `openvision analyze --requests landmarks` (JSON, one image or a batch) against
MediaPipe Python's face mesh and iris on the same images (mediapipe_people_reference.py faces): the mean point
error as a share of the inter-ocular distance (pupil to pupil) per face, faces matched by their nose tip.

    python Benchmarks/python/face_mesh_compare.py ours.json reference.json

The region tables are FaceConstellation.points76's (Sources/OpenVision/Backends/MediaPipe/FaceConstellation.swift).
"""
import json
import math
import sys

T76 = dict(
    faceContour=[127, 234, 93, 132, 58, 172, 136, 150, 152, 379, 365, 397, 288, 361, 323, 454, 356],
    rightEye=[33, 160, 159, 158, 133, 153, 145, 144], leftEye=[263, 387, 386, 385, 362, 380, 374, 373],
    rightEyebrow=[70, 63, 105, 66, 107, 55], leftEyebrow=[300, 293, 334, 296, 336, 285],
    outerLips=[61, 185, 40, 37, 0, 267, 270, 409, 291, 321, 314, 17, 84, 91],
    innerLips=[78, 82, 13, 312, 308, 14], nose=[98, 97, 2, 326, 327, 1], noseCrest=[168, 6, 195],
    medianLine=[168, 6, 195, 1, 2, 0, 13, 14, 17, 152])


def reports(path):
    """name → faces, from one report or a batch (a list, or JSON lines, with a file name each)."""
    text = open(path).read().strip()
    try:
        data = json.loads(text)
        items = data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        items = [json.loads(line) for line in text.splitlines() if line.strip()]
    out = {}
    for item in items:
        name = (item.get("file") or item.get("input") or item.get("path") or "").split("/")[-1]
        out[name] = item.get("faces") or []
    return out


def compare(ours, ref):
    rows = []
    for name, entry in ref["images"].items():
        w, h = entry["width"], entry["height"]
        mine = ours.get(name, ours.get("", []) if len(ours) == 1 else [])
        for face in entry["faces"]:
            mesh = [(x * w, y * h) for x, y, _ in face["mesh"]]
            rp = (face["irisImageLeft"][0][0] * w, face["irisImageLeft"][0][1] * h)
            lp = (face["irisImageRight"][0][0] * w, face["irisImageRight"][0][1] * h)
            iod = math.dist(rp, lp)
            best = None
            for f in mine:
                lm = f.get("landmarks") or {}
                if "noseCrest" not in lm:
                    continue
                d = math.dist((lm["nose"][5]["pixels"]["x"], lm["nose"][5]["pixels"]["y"]), mesh[1])
                if best is None or d < best[0]:
                    best = (d, lm)
            if best is None or best[0] > iod:
                rows.append((name, None, iod))
                continue
            lm = best[1]
            errs = []
            for region, idx in T76.items():
                for p, i in zip(lm[region], idx):
                    errs.append(math.dist((p["pixels"]["x"], p["pixels"]["y"]), mesh[i]))
            for region, q in (("rightPupil", rp), ("leftPupil", lp)):
                p = lm[region][0]["pixels"]
                errs.append(math.dist((p["x"], p["y"]), q))
            rows.append((name, sum(errs) / len(errs) / iod, iod))
    return rows


if __name__ == "__main__":
    rows = compare(reports(sys.argv[1]), json.load(open(sys.argv[2])))
    for name, err, iod in rows:
        print(json.dumps({"file": name, "interocular_px": round(iod, 1), "mean_error_iod": None if err is None else round(err, 4)}))
    found = [e for _, e, _ in rows if e is not None]
    print(json.dumps({"faces": len(rows), "matched": len(found), "mean_error_iod": round(sum(found) / len(found), 4) if found else None}))
