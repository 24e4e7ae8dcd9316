"""The measures ov_quality.cpp takes, computed with OpenCV's Python build on a whole image (CaptureQualityTests'
reference). Usage: quality_reference.py IMAGE (opencv-contrib-python-headless 4.10.0.84, numpy)."""
import sys

import cv2
import numpy as np

img = cv2.imread(sys.argv[1], cv2.IMREAD_COLOR)
g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
lap = cv2.Laplacian(g, cv2.CV_32F, ksize=1, borderType=cv2.BORDER_REPLICATE)[1:-1, 1:-1].astype(np.float64) ** 2
r = np.abs(cv2.filter2D(g, cv2.CV_32F, np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32),
                        borderType=cv2.BORDER_REPLICATE)[1:-1, 1:-1])


def tenth(m):
    blocks = sorted(m[y:y + 8, x:x + 8].mean() for y in range(0, m.shape[0] - 7, 8) for x in range(0, m.shape[1] - 7, 8))
    return blocks[len(blocks) // 10]


noise = np.sqrt(np.pi / 2) / 6 * tenth(r)
f = img.astype(np.float32)
rg, yb = f[..., 2] - f[..., 1], 0.5 * (f[..., 2] + f[..., 1]) - f[..., 0]
colorfulness = np.sqrt(rg.std() ** 2 + yb.std() ** 2) + 0.3 * np.sqrt(rg.mean() ** 2 + yb.mean() ** 2)
print(dict(mean=g.mean(), contrast=g.std(), laplacian=lap.mean(), laplacian_floor=tenth(lap), noise=noise,
           colorfulness=colorfulness))
