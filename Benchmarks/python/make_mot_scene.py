"""Synthetic MOTChallenge scenes with known truth: pedestrians walking through a 1920x1080 view at 30 fps,
seen by a simulated detector. Writes <out>/<scene>/gt/gt.txt (frame,id,x,y,w,h,1,1,visibility) and
<out>/<scene>/det/det.txt (frame,-1,x,y,w,h,score,-1,-1,-1), deterministic for a seed.

The detector: a person whose visible fraction (boxes of people nearer the camera, i.e. lower in the image,
cover it) is under 0.3 is missed; otherwise found with probability `recall`, with a score that falls with
occlusion (0.35 + 0.6 * visibility + N(0, 0.08)), the box jittered by `noise` x its height; plus
Poisson(`false_positives`) spurious boxes per frame with scores 0.1-0.6. People walk at constant velocity
with a small random acceleration (`wander`); their height follows their depth (feet lower = nearer = taller).

usage: make_mot_scene.py OUT_DIR  (writes the scenes listed in SCENES)
"""
import os
import sys

import numpy as np

W, H = 1920, 1080
SCENES = {
    # name: frames, people alive at once, recall, box noise, false positives per frame, wander, seed
    "sparse-linear": dict(frames=300, crowd=6, recall=1.0, noise=0.01, false_positives=0.0, wander=0.0, seed=1),
    "crossing-occlusion": dict(frames=600, crowd=14, recall=0.97, noise=0.02, false_positives=0.3, wander=0.02, seed=2),
    "crowd": dict(frames=900, crowd=35, recall=0.93, noise=0.03, false_positives=1.0, wander=0.05, seed=3),
}


def spawn(rng, frame, next_id):
    """A person entering from the left or right edge (or already inside on frame 1), walking across."""
    foot = rng.uniform(0.35, 1.0) * H
    h = 40 + 0.22 * foot
    w = 0.41 * h
    speed = rng.uniform(1.5, 6.0) * h / 200
    if frame == 1:
        x = rng.uniform(0, W - w)
    else:
        x = -w + 1 if rng.random() < 0.5 else W - 1
    direction = 1.0 if x < W / 2 else -1.0
    vy = rng.normal(0, 0.4)
    return dict(id=next_id, x=x, foot=foot, vx=direction * speed, vy=vy, h=h)


def visibility(boxes, i):
    """1 - the fraction of box i covered by the boxes in front of it (approximated on a 16x16 grid)."""
    x, y, w, h, foot = boxes[i]
    gx = x + (np.arange(16) + 0.5) / 16 * w
    gy = y + (np.arange(16) + 0.5) / 16 * h
    px, py = np.meshgrid(gx, gy)
    covered = np.zeros_like(px, dtype=bool)
    for j, (x2, y2, w2, h2, foot2) in enumerate(boxes):
        if j != i and foot2 > foot:
            covered |= (px >= x2) & (px < x2 + w2) & (py >= y2) & (py < y2 + h2)
    return 1.0 - covered.mean()


def make(out, name, frames, crowd, recall, noise, false_positives, wander, seed):
    rng = np.random.default_rng(seed)
    people, next_id = [], 1
    for _ in range(crowd):
        people.append(spawn(rng, 1, next_id)); next_id += 1
    gt_lines, det_lines = [], []
    for frame in range(1, frames + 1):
        if frame > 1:
            for p in people:
                p["vx"] += rng.normal(0, wander * abs(p["vx"]) + 1e-9)
                p["vy"] += rng.normal(0, wander)
                p["x"] += p["vx"]; p["foot"] = float(np.clip(p["foot"] + p["vy"], 0.3 * H, H))
                p["h"] = 40 + 0.22 * p["foot"]
            people = [p for p in people if -0.41 * p["h"] < p["x"] < W]
            while len(people) < crowd and rng.random() < 0.15:
                people.append(spawn(rng, frame, next_id)); next_id += 1
        boxes = [(p["x"], p["foot"] - p["h"], 0.41 * p["h"], p["h"], p["foot"]) for p in people]
        for i, p in enumerate(people):
            x, y, w, h, _ = boxes[i]
            # Clip to the image (as MOT ground truth is).
            x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
            if x1 - x0 < 4 or y1 - y0 < 4:
                continue
            vis = visibility(boxes, i)
            gt_lines.append(f"{frame},{p['id']},{x0:.2f},{y0:.2f},{x1 - x0:.2f},{y1 - y0:.2f},1,1,{vis:.3f}")
            if vis < 0.3 or rng.random() > recall:
                continue
            score = float(np.clip(0.35 + 0.6 * vis + rng.normal(0, 0.08), 0.05, 0.99))
            j = rng.normal(0, noise * h, 4)
            dx0, dy0 = x0 + j[0], y0 + j[1]
            dw, dh = max(4.0, (x1 - x0) + j[2]), max(4.0, (y1 - y0) + j[3])
            det_lines.append(f"{frame},-1,{dx0:.2f},{dy0:.2f},{dw:.2f},{dh:.2f},{score:.3f},-1,-1,-1")
        for _ in range(rng.poisson(false_positives)):
            h = rng.uniform(60, 300); w = 0.41 * h
            det_lines.append(f"{frame},-1,{rng.uniform(0, W - w):.2f},{rng.uniform(0, H - h):.2f},{w:.2f},{h:.2f},"
                             f"{rng.uniform(0.1, 0.6):.3f},-1,-1,-1")
    for sub, lines in (("gt", gt_lines), ("det", det_lines)):
        os.makedirs(os.path.join(out, name, sub), exist_ok=True)
        with open(os.path.join(out, name, sub, f"{sub}.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
    return len(gt_lines), len(det_lines), next_id - 1


if __name__ == "__main__":
    for name, spec in SCENES.items():
        gt, det, ids = make(sys.argv[1], name, **spec)
        print(f"{name}: {spec['frames']} frames, {ids} people, {gt} truth boxes, {det} detections", file=sys.stderr)
