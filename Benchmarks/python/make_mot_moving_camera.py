"""A moving-camera MOTChallenge sequence made from a still one (for `openvision track --camera-motion`): every box
of SCENE/gt/gt.txt and SCENE/det/det.txt is seen through a camera that pans 6 px a frame, zooms in 0.2 % a frame
about the image centre and shakes (a jump of up to 40 px every 25 frames), deterministic. Writes OUT/gt/gt.txt,
OUT/det/det.txt (the boxes' images: bounding boxes of their mapped corners) and OUT/camera/motion.txt, one line
per frame from 2: frame,h11,...,h33, the homography taking the previous frame's pixels to this frame's (what an
image registration of consecutive frames gives, here exact).

usage: make_mot_moving_camera.py SCENE_DIR OUT_DIR
"""
import os
import sys

import numpy as np

W, H = 1920, 1080


def camera(frame, shakes):
    """Scene point -> image point on `frame` (3x3)."""
    zoom = 1.002 ** (frame - 1)
    shake = shakes[(frame - 1) // 25]
    tx, ty = -6.0 * (frame - 1) + shake[0], shake[1]
    return np.array([[zoom, 0, W / 2 * (1 - zoom) + tx], [0, zoom, H / 2 * (1 - zoom) + ty], [0, 0, 1]])


def warp(rows, shakes):
    out = rows.copy()
    for r in out:
        c = camera(int(r[0]), shakes)
        x, y, w, h = r[2:6]
        corners = c @ np.array([[x, x + w, x, x + w], [y, y, y + h, y + h], [1, 1, 1, 1]])
        corners = corners[:2] / corners[2]
        r[2], r[3] = corners[0].min(), corners[1].min()
        r[4], r[5] = corners[0].max() - r[2], corners[1].max() - r[3]
    return out


def main():
    scene, out = sys.argv[1], sys.argv[2]
    rng = np.random.default_rng(4)
    gt = np.loadtxt(os.path.join(scene, "gt", "gt.txt"), delimiter=",", ndmin=2)
    det = np.loadtxt(os.path.join(scene, "det", "det.txt"), delimiter=",", ndmin=2)
    frames = int(max(gt[:, 0].max(), det[:, 0].max()))
    shakes = rng.uniform(-40, 40, size=(frames // 25 + 1, 2))
    for sub in ("gt", "det", "camera"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    for name, rows in (("gt/gt.txt", gt), ("det/det.txt", det)):
        w = warp(rows, shakes)
        with open(os.path.join(out, name), "w") as f:
            for r in w:
                f.write(",".join([str(int(r[0])), str(int(r[1]))] + [f"{v:.2f}" for v in r[2:6]] + [f"{v:g}" for v in r[6:]]) + "\n")
    with open(os.path.join(out, "camera", "motion.txt"), "w") as f:
        for frame in range(2, frames + 1):
            m = camera(frame, shakes) @ np.linalg.inv(camera(frame - 1, shakes))
            m = m / m[2, 2]
            f.write(f"{frame}," + ",".join(f"{v:.9g}" for v in m.ravel()) + "\n")
    print(f"{os.path.basename(os.path.normpath(out))}: {frames} frames, camera pan, zoom and shake", file=sys.stderr)


if __name__ == "__main__":
    main()
