#!/usr/bin/env python3
"""Smoke-test an ImageNet-1k classifier ONNX made by convert_efficientnet_lite0.py.

Prints the softmax top-5 for every *.jpg in --images and exits non-zero unless
dog.jpg's top-5 holds a dog breed and eagle.jpg's top-1 is a bird of prey.
Needs numpy, pillow, onnxruntime. Preprocessing comes from the model's metadata.
"""
import argparse
import glob
import json
import os
import sys

import numpy as np
import onnxruntime as ort
from PIL import Image

DOG_BREEDS = range(151, 269)    # ImageNet-1k classes 151..268
BIRDS_OF_PREY = {21, 22, 23, 24}  # kite, bald eagle, vulture, great grey owl


def preprocess(path, meta):
    size, resize = int(meta["input_size"]), int(meta["resize_size"])
    img = Image.open(path).convert("RGB")
    scale = resize / min(img.size)
    w, h = max(resize, round(img.width * scale)), max(resize, round(img.height * scale))
    img = img.resize((w, h), Image.BICUBIC)
    left, top = (w - size) // 2, (h - size) // 2
    x = np.asarray(img.crop((left, top, left + size, top + size)), dtype=np.float32) / 255.0
    x = (x - np.array(json.loads(meta["mean"]), np.float32)) / np.array(json.loads(meta["std"]), np.float32)
    return x.transpose(2, 0, 1)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", required=True)
    ap.add_argument("--images", default=os.path.join(here, "..", "..", "..", "shared", "images"))
    args = ap.parse_args()

    sess = ort.InferenceSession(args.model, providers=["CPUExecutionProvider"])
    meta = sess.get_modelmeta().custom_metadata_map
    labels = json.loads(meta["labels"])
    files = sorted(glob.glob(os.path.join(args.images, "*.jpg")))
    if not files:
        sys.exit(f"no *.jpg in {args.images}")
    batch = np.stack([preprocess(f, meta) for f in files])
    logits, features = sess.run(["logits", "features"], {"input": batch})
    assert logits.shape == (len(files), 1000) and features.shape == (len(files), 1280)
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    top5 = {}
    for f, row in zip(files, p):
        name = os.path.basename(f)
        top5[name] = list(np.argsort(-row, kind="stable")[:5])
        print(name + ": " + "; ".join(f"{labels[i]} {row[i]:.3f}" for i in top5[name]))
    failures = []
    if not any(i in DOG_BREEDS for i in top5.get("dog.jpg", [])):
        failures.append("dog.jpg: no dog breed in top-5")
    if not top5.get("eagle.jpg") or top5["eagle.jpg"][0] not in BIRDS_OF_PREY:
        failures.append("eagle.jpg: top-1 is not a bird of prey")
    for msg in failures:
        print("FAIL " + msg, file=sys.stderr)
    print("classifier check: " + ("FAILED" if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
