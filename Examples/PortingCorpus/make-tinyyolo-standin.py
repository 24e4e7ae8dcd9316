#!/usr/bin/env python3
"""Writes TinyYOLOStandIn.mlmodel, the porting corpus's stand-in for the TinyYOLO app's `TinyYOLO.mlmodel`.

The app's model (tiny-yolo-voc converted from Darknet with coremltools' Keras converter) is not in its repository
(the weights file is too large to be stored there) and Darknet's download site is not reachable here, so this is a
stand-in with the same interface, made from nothing but this script: a Core ML NeuralNetwork (spec 4, as the
original) with the image input `image` (416 × 416 RGB, scaled by 1/255, as the original) and the output `grid`
(Double, 125 × 13 × 13: five anchors × (x, y, w, h, confidence, 20 VOC classes) on a 13 × 13 grid), through Tiny
YOLO's layer pattern — 3 × 3 convolutions with leaky ReLU (0.1), five 2 × 2 stride-2 max pools and one stride-1 pool,
then a 1 × 1 convolution to 125 channels — with fewer filters per layer and weights drawn from a fixed seed (He
normal). It runs end to end and its outputs are deterministic, but they are not detections: it is there so that the
sample's `TinyYOLO()` / `prediction(image:)` / `output.grid` code builds and runs against a real model of that shape.

  python3 -m venv /tmp/v && /tmp/v/bin/pip install coremltools==9.0 numpy
  /tmp/v/bin/python make-tinyyolo-standin.py OUT_DIR   (writes OUT_DIR/TinyYOLOStandIn.mlmodel; seed 2017)
"""
import os
import sys

import numpy as np
import coremltools as ct
from coremltools.models import datatypes
from coremltools.models.neural_network import NeuralNetworkBuilder

out_dir = sys.argv[1]
rng = np.random.default_rng(2017)
builder = NeuralNetworkBuilder(
    [("image", datatypes.Array(3, 416, 416))], [("grid", datatypes.Array(125, 13, 13))], disable_rank5_shape_mapping=False
)
builder.set_pre_processing_parameters(
    image_input_names=["image"], is_bgr=False, red_bias=0, green_bias=0, blue_bias=0, image_scale=1 / 255.0
)

# Tiny YOLO's pattern (tiny-yolo-voc.cfg), narrower: (filters, then a max pool of stride 2, 1 or none).
layers = [(16, 2), (32, 2), (64, 2), (64, 2), (128, 2), (128, 1), (128, None), (128, None)]
blob, channels = "image", 3
for i, (filters, pool) in enumerate(layers):
    w = rng.normal(0, np.sqrt(2 / (9 * channels)), (3, 3, channels, filters)).astype(np.float32)
    b = rng.normal(0, 0.05, filters).astype(np.float32)
    builder.add_convolution(
        f"conv{i}", kernel_channels=channels, output_channels=filters, height=3, width=3, stride_height=1,
        stride_width=1, border_mode="same", groups=1, W=w, b=b, has_bias=True, input_name=blob,
        output_name=f"conv{i}")
    builder.add_activation(f"leaky{i}", "LEAKYRELU", f"conv{i}", f"leaky{i}", params=[0.1])
    blob, channels = f"leaky{i}", filters
    if pool:
        builder.add_pooling(
            f"pool{i}", height=2, width=2, stride_height=pool, stride_width=pool, layer_type="MAX",
            padding_type="SAME", input_name=blob, output_name=f"pool{i}")
        blob = f"pool{i}"
w = rng.normal(0, np.sqrt(1 / channels), (1, 1, channels, 125)).astype(np.float32)
builder.add_convolution(
    "grid", kernel_channels=channels, output_channels=125, height=1, width=1, stride_height=1, stride_width=1,
    border_mode="valid", groups=1, W=w, b=np.zeros(125, np.float32), has_bias=True, input_name=blob,
    output_name="grid")

spec = builder.spec
spec.description.input[0].type.imageType.width = 416
spec.description.input[0].type.imageType.height = 416
spec.description.input[0].type.imageType.colorSpace = ct.proto.FeatureTypes_pb2.ImageFeatureType.RGB
spec.description.input[0].shortDescription = "Input image"
spec.description.output[0].shortDescription = "The 13x13 grid with the bounding box data"
spec.description.metadata.shortDescription = (
    "A stand-in with Tiny YOLO's interface (image 416x416 -> grid 125x13x13) and seeded weights: not a detector")
spec.description.metadata.author = "OpenVision (Examples/PortingCorpus/make-tinyyolo-standin.py)"
spec.description.metadata.license = "MIT (generated; no trained weights)"
model = ct.models.MLModel(spec)
path = os.path.join(out_dir, "TinyYOLOStandIn.mlmodel")
model.save(path)
print(path, os.path.getsize(path))
