"""mAP@0.5 of a detector run through `openvision detect` on hand-labelled photos (VOC-style all-point AP per
class over the classes present in the labels, detections down to confidence 0.01).
Usage: detector_map.py OPENVISION LABELS.json IMAGES_DIR [detect options...]"""
import json, os, subprocess, sys

ov, labels_path, images = sys.argv[1], sys.argv[2], sys.argv[3]
extra = sys.argv[4:]
truth = {k: v for k, v in json.load(open(labels_path)).items() if not k.startswith("_")}
files = [os.path.join(images, f) for f in truth]
out = subprocess.run([ov, "detect", "--confidence", "0.01", *extra, *files], capture_output=True, text=True, check=True).stdout
dets = {}
for line in out.splitlines():
    r = json.loads(line)
    dets[os.path.basename(r["image"])] = [(o["label"], o["confidence"], o["box"]["pixels"]) for o in r.get("objects", [])]

def iou(a, b):
    ax, ay, aw, ah = a; bx, by, bw, bh = b
    iw = max(0, min(ax + aw, bx + bw) - max(ax, bx)); ih = max(0, min(ay + ah, by + bh) - max(ay, by))
    i = iw * ih
    return i / (aw * ah + bw * bh - i)

aps = {}
for cls in sorted({t[0] for v in truth.values() for t in v}):
    gts = {f: [t[1:] for t in v if t[0] == cls] for f, v in truth.items()}
    npos = sum(len(g) for g in gts.values())
    cand = sorted(((c, f, (p["x"], p["y"], p["width"], p["height"])) for f, v in dets.items() for (l, c, p) in v if l == cls), reverse=True)
    used = {f: [False] * len(g) for f, g in gts.items()}
    tp, fp = [], []
    for c, f, box in cand:
        best, j = 0, -1
        for k, g in enumerate(gts[f]):
            o = iou(box, g)
            if o > best: best, j = o, k
        if best >= 0.5 and not used[f][j]:
            used[f][j] = True; tp.append(1); fp.append(0)
        else:
            tp.append(0); fp.append(1)
    # all-point interpolated AP
    ctp = cfp = 0; prec, rec = [], []
    for t, f_ in zip(tp, fp):
        ctp += t; cfp += f_
        prec.append(ctp / (ctp + cfp)); rec.append(ctp / npos)
    ap, prev_r = 0.0, 0.0
    for i in range(len(prec)):
        p = max(prec[i:])
        ap += (rec[i] - prev_r) * p
        prev_r = rec[i]
    aps[cls] = (ap, npos, sum(tp))
for cls, (ap, n, hit) in aps.items():
    print(f"{cls:12} AP@0.5 {ap:.3f}  ({hit}/{n} objects found at IoU >= 0.5)")
print(f"mAP@0.5 over {len(aps)} classes, {sum(v[1] for v in aps.values())} objects in {len(truth)} photos: "
      f"{sum(v[0] for v in aps.values()) / len(aps):.3f}")
