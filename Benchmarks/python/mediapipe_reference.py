#!/usr/bin/env python3
"""Reference results of MediaPipe Python 0.10.14 for the hand pose and BlazeFace tests.

Renders the hand test images (no shared photo shows a hand MediaPipe finds: person.jpg and astronaut.png give
none) and writes what mp.solutions.hands (static_image_mode=True, model_complexity 0 and 1) and
mp.solutions.face_detection (model_selection 0 and 1) find on them and on the shared photos:

    /work/.venv-mp/bin/python Benchmarks/python/mediapipe_reference.py ../shared/images Tests/Fixtures/MediaPipe

Needs mediapipe==0.10.14 and opencv (its dependency); never part of setup or CI: the tests read the JSON.
Points are MediaPipe's: normalised, top-left origin.
"""
import json
import os
import sys

import cv2
import numpy as np


def capsule(img, p0, p1, r, value):
    p0 = np.array(p0, float)
    p1 = np.array(p1, float)
    for t in np.linspace(0, 1, int(np.linalg.norm(p1 - p0)) + 1):
        p = p0 + (p1 - p0) * t
        cv2.circle(img, (int(p[0]), int(p[1])), int(r), value, -1, cv2.LINE_AA)


def render_hand(W=480, H=480, angle=0.0, scale=1.0, background=(90, 120, 70), seed=1):
    """An open right hand, palm towards the viewer (thumb on the image's left), shaded, on a noisy gradient (BGR)."""
    mask = np.zeros((H, W), np.uint8)
    cx, cy = W // 2, int(H * 0.62)
    s = W / 480 * scale
    cv2.ellipse(mask, (cx, cy), (int(78 * s), int(92 * s)), 0, 0, 360, 255, -1, cv2.LINE_AA)
    capsule(mask, (cx, cy + 60 * s), (cx, H + 40), 58 * s, 255)
    fingers = [(-60, 105, -12, 17), (-22, 130, -3, 18), (16, 138, 3, 18), (52, 120, 10, 17)]
    parts = []
    for bx, length, a, w in fingers:
        b = (cx + bx * s, cy - 70 * s)
        t = (b[0] + np.sin(np.radians(a)) * length * s, b[1] - np.cos(np.radians(a)) * length * s)
        capsule(mask, b, t, w * s, 255)
        parts.append((b, t, a, w))
    capsule(mask, (cx - 70 * s, cy + 20 * s), (cx - 125 * s, cy - 40 * s), 22 * s, 255)
    capsule(mask, (cx - 125 * s, cy - 40 * s), (cx - 150 * s, cy - 90 * s), 19 * s, 255)
    dist = cv2.distanceTransform((mask > 0).astype(np.uint8), cv2.DIST_L2, 5)
    shade = np.clip(dist / (20 * s), 0, 1) ** 0.5
    skin = np.array([120, 150, 205], float)
    rng = np.random.default_rng(seed)
    fg = skin[None, None, :] * (0.55 + 0.45 * shade[..., None]) + rng.normal(0, 6, (H, W, 1))
    xx = np.mgrid[0:H, 0:W][1]
    bg = np.array(background, float)[None, None, :] * (0.8 + 0.4 * xx[..., None] / W) + rng.normal(0, 8, (H, W, 1))
    m = cv2.GaussianBlur(mask, (0, 0), 1.0)[..., None] / 255.0
    img = fg * m + bg * (1 - m)
    for b, t, a, w in parts:  # knuckle creases
        for f in (0.35, 0.68):
            q = (b[0] + (t[0] - b[0]) * f, b[1] + (t[1] - b[1]) * f)
            dx, dy = np.cos(np.radians(a)) * w * 0.7 * s, np.sin(np.radians(a)) * w * 0.7 * s
            cv2.line(img, (int(q[0] - dx), int(q[1] - dy)), (int(q[0] + dx), int(q[1] + dy)), (80, 100, 150),
                     max(1, int(2 * s)), cv2.LINE_AA)
    img = cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (0, 0), 0.8)
    if angle:
        M = cv2.getRotationMatrix2D((W / 2, H / 2), angle, 1)
        img = cv2.warpAffine(img, M, (W, H), borderMode=cv2.BORDER_REFLECT)
    return img


def hand_images():
    """name → BGR image: one hand turned 20°, two hands (a right and a mirrored copy: a left), a small one."""
    single = render_hand(angle=20, scale=0.8)
    a = render_hand(angle=15, scale=0.7)
    two = np.concatenate([a, cv2.flip(render_hand(angle=15, scale=0.7, seed=2), 1)], axis=1)
    small = cv2.resize(render_hand(angle=-25, scale=0.8), (160, 160), interpolation=cv2.INTER_AREA)
    return {"hand-single.jpg": single, "hands-two.jpg": two, "hand-small.jpg": small}


def hands_reference(mp, rgb):
    out = {}
    for complexity in (0, 1):
        with mp.solutions.hands.Hands(static_image_mode=True, max_num_hands=2, model_complexity=complexity) as hands:
            r = hands.process(rgb)
        found = []
        for landmarks, handedness in zip(r.multi_hand_landmarks or [], r.multi_handedness or []):
            c = handedness.classification[0]
            found.append({"label": c.label, "score": c.score,
                          "landmarks": [[p.x, p.y, p.z] for p in landmarks.landmark]})
        out["lite" if complexity == 0 else "full"] = found
    return out


def faces_reference(mp, rgb):
    out = {}
    for selection in (0, 1):
        with mp.solutions.face_detection.FaceDetection(model_selection=selection) as detector:
            r = detector.process(rgb)
        found = []
        for d in r.detections or []:
            b = d.location_data.relative_bounding_box
            found.append({"score": d.score[0], "box": [b.xmin, b.ymin, b.width, b.height],
                          "keypoints": [[k.x, k.y] for k in d.location_data.relative_keypoints]})
        out["short" if selection == 0 else "full"] = found
    return out


def main():
    import mediapipe as mp
    shared, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    images = {}
    for name, img in hand_images().items():
        cv2.imwrite(os.path.join(out_dir, name), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
        images[name] = cv2.imread(os.path.join(out_dir, name))  # as the tests read it
    for name in ("person.jpg", "astronaut.png"):
        images[name] = cv2.imread(os.path.join(shared, name))
    reference = {"mediapipe": mp.__version__, "images": {}}
    for name, img in images.items():
        rgb = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
        reference["images"][name] = {"width": img.shape[1], "height": img.shape[0],
                                     "hands": hands_reference(mp, rgb), "faces": faces_reference(mp, rgb)}
    with open(os.path.join(out_dir, "reference.json"), "w") as f:
        json.dump(reference, f, indent=1)
    for name, r in reference["images"].items():
        print(name, {k: len(v) for k, v in r["hands"].items()}, {k: len(v) for k, v in r["faces"].items()})


if __name__ == "__main__":
    main()
