"""The measures ov_quality.cpp takes, computed with OpenCV's Python build on a whole image (CaptureQualityTests'
reference). Usage: quality_reference.py IMAGE (opencv-contrib-python-headless 4.10.0.84, numpy, scipy for the gamma
quantile: `python3 -m venv /tmp/q && /tmp/q/bin/pip install numpy scipy opencv-contrib-python-headless==4.10.0.84`).

noise: Liu, Tanaka and Okutomi's weak-texture patch estimate (IEEE TIP 2013), as their MATLAB NoiseLevel with patch
size 7, confidence 1 - 1e-6 and 3 iterations, on a grid of step s (the smallest giving at most 40,000 patches); under
1,960 patches Immerkaer's;
immerkaer: the estimate ov_quality.cpp uses on regions too small for it."""
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


immerkaer = np.sqrt(np.pi / 2) / 6 * tenth(r)


def weak_texture_noise(g, p=7, tail=1e-6, iterations=3):
    from numpy.lib.stride_tricks import sliding_window_view
    from scipy.special import gammainccinv
    d = np.zeros((p * p, p * p))
    for y in range(p):
        for x in range(p - 2):
            for a, b in ((y * p + x, y * p + x + 2), (x * p + y, (x + 2) * p + y)):
                row = np.zeros(p * p)
                row[a], row[b] = -0.5, 0.5
                d += np.outer(row, row)
    rank = np.linalg.matrix_rank(d)
    tau0 = gammainccinv(rank / 2, tail) * 2 * np.trace(d) / rank
    g = g.astype(np.float64)
    ny, nx = g.shape[0] - p + 1, g.shape[1] - p + 1
    step = max(1, int(np.ceil(np.sqrt(ny * nx / 40000))))
    x = sliding_window_view(g, (p, p))[::step, ::step].reshape(-1, p * p)
    h = 0.5 * (x.reshape(-1, p, p)[:, :, 2:] - x.reshape(-1, p, p)[:, :, :-2])
    v = 0.5 * (x.reshape(-1, p, p)[:, 2:, :] - x.reshape(-1, p, p)[:, :-2, :])
    energy = (h ** 2).sum((1, 2)) + (v ** 2).sum((1, 2))
    if len(x) < 40 * p * p:
        return None  # ov_quality.cpp takes Immerkaer's estimate then

    def smallest(x):
        return max(np.linalg.eigvalsh(np.cov(x.T))[0], 0)

    variance = smallest(x)
    for _ in range(1, iterations):
        keep = energy < variance * tau0
        if keep.sum() < p * p:
            break
        x, energy = x[keep], energy[keep]
        variance = smallest(x)
    return np.sqrt(variance)


noise = weak_texture_noise(g)
noise = immerkaer if noise is None else noise
f = img.astype(np.float32)
rg, yb = f[..., 2] - f[..., 1], 0.5 * (f[..., 2] + f[..., 1]) - f[..., 0]
colorfulness = np.sqrt(rg.std() ** 2 + yb.std() ** 2) + 0.3 * np.sqrt(rg.mean() ** 2 + yb.mean() ** 2)
print(dict(mean=g.mean(), contrast=g.std(), laplacian=lap.mean(), laplacian_floor=tenth(lap), noise=noise,
           immerkaer=immerkaer, colorfulness=colorfulness))
