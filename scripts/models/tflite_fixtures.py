#!/usr/bin/env python3
"""Reference outputs for the TFLite importer's tests (Tests/OpenVisionTests/Models/TFLite*Tests.swift).

Run in a venv with tflite-runtime==2.14.0 and mediapipe==0.10.14 (mediapipe only for the TFLite schema's
object API, mediapipe/tasks/metadata/schema_py_generated.py):

    python scripts/models/tflite_fixtures.py [--models /usr/local/share/openvision/models] [--image ../shared/images/astronaut.png]

Writes
  Tests/Fixtures/tflite/ops/<name>.tflite   one tiny model per operator (built here with the schema's object API)
  Tests/Fixtures/tflite/ops/<name>.json     its input and tflite-runtime's outputs, every value
  Tests/Fixtures/tflite/models/<model>.json tflite-runtime's raw outputs of each MediaPipe model on the image

Model inputs: the image (astronaut.png is a JPEG despite its name; PIL and Debian's OpenCV 4.6, which
OpenVision decodes with, give the same bytes: both sum to 17894365) sampled to the model's input size by
nearest neighbour, row y from source row y*H//h (x likewise), as float32 p/255 (landmark and segmentation
models) or p/127.5-1 (pose and face detectors: their metadata's NormalizationOptions 127.5, 127.5).
Model outputs are stored as a deterministic subsample (every `step`-th value of the flattened output, at
most ~1500 values) plus the full output's min, max, mean and mean |x|, all float32 printed with 9 digits, and
`kernel_spread`: the largest |difference| between tflite-runtime's default (XNNPACK) kernels and its builtin
kernels without delegates on the same input, the reference's own float32 noise (the tests allow
max(1e-3, 2 x kernel_spread)).

MediaPipe's custom Convolution2DTransposeBias (selfie segmentation) is not in tflite-runtime: for the
reference, each such operator is rewritten as the builtin TRANSPOSE_CONV with the same weights and its
bias as the optional fourth input (inputs: output shape, weights, input, bias; same padding and strides),
which is what MediaPipe's kernel computes (mediapipe/util/tflite/operations/transpose_conv_bias.cc).
"""
import argparse, json, os, sys
import numpy as np
from PIL import Image
from tflite_runtime.interpreter import Interpreter, OpResolverType
from mediapipe.tasks.metadata import schema_py_generated as S
import flatbuffers

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPS = os.path.join(ROOT, "Tests/Fixtures/tflite/ops")
MODELS = os.path.join(ROOT, "Tests/Fixtures/tflite/models")
rng = np.random.default_rng(20261123)

# ---------------------------------------------------------------- tiny graphs

class Graph:
    def __init__(self):
        self.tensors, self.buffers, self.ops, self.codes = [], [S.BufferT()], [], []
        self.inputs, self.outputs = [], []

    def tensor(self, shape, name, data=None, dtype=S.TensorType.FLOAT32):
        t = S.TensorT()
        t.shape = list(shape); t.name = name; t.type = dtype; t.buffer = 0
        if data is not None:
            b = S.BufferT(); b.data = list(np.ascontiguousarray(data).tobytes())
            self.buffers.append(b); t.buffer = len(self.buffers) - 1
        self.tensors.append(t)
        return len(self.tensors) - 1

    def const(self, array, name, dtype=None):
        array = np.asarray(array)
        if dtype is None:
            dtype = {np.dtype(np.float32): S.TensorType.FLOAT32, np.dtype(np.float16): S.TensorType.FLOAT16,
                     np.dtype(np.int32): S.TensorType.INT32}[array.dtype]
        return self.tensor(array.shape, name, array, dtype)

    def input(self, shape, name="input"):
        i = self.tensor(shape, name); self.inputs.append(i); return i

    def code(self, builtin, custom=None):
        key = (builtin, custom)
        for i, c in enumerate(self.codes):
            if (c.builtinCode, c.customCode) == key: return i
        c = S.OperatorCodeT(); c.builtinCode = builtin; c.deprecatedBuiltinCode = min(builtin, 127)
        c.customCode = custom; c.version = 1
        self.codes.append(c); return len(self.codes) - 1

    def op(self, builtin, inputs, outputs, options=None, options_type=0, custom=None, custom_options=None):
        o = S.OperatorT()
        o.opcodeIndex = self.code(builtin, custom); o.inputs = inputs; o.outputs = outputs
        if options is not None: o.builtinOptionsType = options_type; o.builtinOptions = options
        if custom_options is not None: o.customOptions = list(custom_options)
        self.ops.append(o)

    def serialize(self):
        sg = S.SubGraphT(); sg.tensors = self.tensors; sg.inputs = self.inputs; sg.outputs = self.outputs
        sg.operators = self.ops; sg.name = "main"
        m = S.ModelT(); m.version = 3; m.operatorCodes = self.codes; m.subgraphs = [sg]
        m.buffers = self.buffers; m.description = "openvision test graph"
        b = flatbuffers.Builder(1024); b.Finish(m.Pack(b), file_identifier=b"TFL3")
        return bytes(b.Output())

def options(cls, **fields):
    o = cls()
    for k, v in fields.items(): setattr(o, k, v)
    return o

B, O, P, A = S.BuiltinOperator, S.BuiltinOptions, S.Padding, S.ActivationFunctionType
def w(*shape, scale=0.5): return (rng.standard_normal(shape) * scale).astype(np.float32)

def op_graphs():
    """name -> Graph, each with one (or two) operators under test."""
    g = {}
    def new(shape=(1, 7, 9, 4)):
        gr = Graph(); x = gr.input(shape); return gr, x

    gr, x = new(); y = gr.tensor((1, 4, 5, 6), "y")
    gr.op(B.CONV_2D, [x, gr.const(w(6, 3, 3, 4), "w"), gr.const(w(6), "b")], [y],
          options(S.Conv2DOptionsT, padding=P.SAME, strideW=2, strideH=2, fusedActivationFunction=A.RELU6), O.Conv2DOptions)
    gr.outputs = [y]; g["conv2d_same_stride2_relu6"] = gr

    gr, x = new(); y = gr.tensor((1, 3, 5, 5), "y")
    gr.op(B.CONV_2D, [x, gr.const(w(5, 3, 3, 4), "w"), gr.const(w(5), "b")], [y],
          options(S.Conv2DOptionsT, padding=P.VALID, strideW=1, strideH=1, dilationWFactor=2, dilationHFactor=2), O.Conv2DOptions)
    gr.outputs = [y]; g["conv2d_valid_dilated"] = gr

    gr, x = new(); y = gr.tensor((1, 7, 9, 4), "y")
    gr.op(B.DEPTHWISE_CONV_2D, [x, gr.const(w(1, 3, 3, 4), "w"), gr.const(w(4), "b")], [y],
          options(S.DepthwiseConv2DOptionsT, padding=P.SAME, strideW=1, strideH=1, depthMultiplier=1,
                  fusedActivationFunction=A.RELU), O.DepthwiseConv2DOptions)
    gr.outputs = [y]; g["depthwise_same_relu"] = gr

    gr, x = new(); y = gr.tensor((1, 3, 4, 8), "y")
    gr.op(B.DEPTHWISE_CONV_2D, [x, gr.const(w(1, 3, 3, 8), "w"), gr.const(w(8), "b")], [y],
          options(S.DepthwiseConv2DOptionsT, padding=P.VALID, strideW=2, strideH=2, depthMultiplier=2), O.DepthwiseConv2DOptions)
    gr.outputs = [y]; g["depthwise_valid_multiplier2"] = gr

    gr, x = new((1, 4, 5, 3)); y = gr.tensor((1, 8, 10, 6), "y")
    gr.op(B.TRANSPOSE_CONV, [gr.const(np.array([1, 8, 10, 6], np.int32), "shape"), gr.const(w(6, 3, 3, 3), "w"), x,
                             gr.const(w(6), "b")], [y],
          options(S.TransposeConvOptionsT, padding=P.SAME, strideW=2, strideH=2), O.TransposeConvOptions)
    gr.outputs = [y]; g["transpose_conv_same_stride2"] = gr

    # MediaPipe's Convolution2DTransposeBias: custom options {padding SAME=1, stride_w, stride_h} as int32.
    gr, x = new((1, 4, 5, 3)); y = gr.tensor((1, 8, 10, 2), "y")
    gr.op(B.CUSTOM, [x, gr.const(w(2, 2, 2, 3), "w"), gr.const(w(2), "b")], [y], custom="Convolution2DTransposeBias",
          custom_options=np.array([1, 2, 2], np.int32).tobytes())
    gr.outputs = [y]; g["mediapipe_convolution2d_transpose_bias"] = gr

    for name, builtin, fh, fw, s, pad, shape in [("max_pool_same", B.MAX_POOL_2D, 3, 3, 2, P.SAME, (1, 4, 5, 4)),
                                                 ("average_pool_same", B.AVERAGE_POOL_2D, 3, 3, 2, P.SAME, (1, 4, 5, 4)),
                                                 ("average_pool_valid", B.AVERAGE_POOL_2D, 2, 2, 2, P.VALID, (1, 3, 4, 4))]:
        gr, x = new(); y = gr.tensor(shape, "y")
        gr.op(builtin, [x], [y], options(S.Pool2DOptionsT, padding=pad, strideW=s, strideH=s, filterWidth=fw,
                                         filterHeight=fh), O.Pool2DOptions)
        gr.outputs = [y]; g[name] = gr

    for name, builtin, opt, opt_type in [("add_relu", B.ADD, options(S.AddOptionsT, fusedActivationFunction=A.RELU), O.AddOptions),
                                          ("mul", B.MUL, options(S.MulOptionsT), O.MulOptions),
                                          ("sub", B.SUB, options(S.SubOptionsT), O.SubOptions),
                                          ("maximum", B.MAXIMUM, None, 0)]:
        gr, x = new(); x2 = gr.input((1, 7, 9, 4), "input2"); y = gr.tensor((1, 7, 9, 4), "y")
        gr.op(builtin, [x, x2], [y], opt, opt_type); gr.outputs = [y]; g[name] = gr

    gr, x = new(); y = gr.tensor((1, 7, 9, 4), "y")   # broadcast a per-channel constant
    gr.op(B.MUL, [x, gr.const(w(4), "c")], [y], options(S.MulOptionsT), O.MulOptions); gr.outputs = [y]
    g["mul_channel_constant"] = gr

    for name, builtin in [("logistic", B.LOGISTIC), ("tanh", B.TANH), ("relu", B.RELU), ("relu6", B.RELU6),
                          ("hard_swish", B.HARD_SWISH)]:
        gr, x = new(); y = gr.tensor((1, 7, 9, 4), "y"); gr.op(builtin, [x], [y]); gr.outputs = [y]; g[name] = gr

    gr, x = new(); y = gr.tensor((1, 7, 9, 4), "y")
    gr.op(B.LEAKY_RELU, [x], [y], options(S.LeakyReluOptionsT, alpha=0.2), O.LeakyReluOptions); gr.outputs = [y]
    g["leaky_relu"] = gr

    gr, x = new(); y = gr.tensor((1, 7, 9, 4), "y")
    gr.op(B.PRELU, [x, gr.const(w(1, 1, 4), "alpha")], [y]); gr.outputs = [y]; g["prelu"] = gr

    gr, x = new(); y = gr.tensor((1, 9, 12, 4), "y")
    gr.op(B.PAD, [x, gr.const(np.array([[0, 0], [1, 1], [2, 1], [0, 0]], np.int32), "paddings")], [y])
    gr.outputs = [y]; g["pad_spatial"] = gr

    gr, x = new(); y = gr.tensor((1, 7, 9, 10), "y")   # MediaPipe pads channels before residual adds
    gr.op(B.PAD, [x, gr.const(np.array([[0, 0], [0, 0], [0, 0], [0, 6]], np.int32), "paddings")], [y])
    gr.outputs = [y]; g["pad_channels"] = gr

    for name, align, half, shape in [("resize_bilinear", False, False, (1, 14, 18, 4)),
                                     ("resize_bilinear_half_pixel", False, True, (1, 14, 18, 4)),
                                     ("resize_bilinear_align_corners", True, False, (1, 13, 17, 4))]:
        gr, x = new(); y = gr.tensor(shape, "y")
        gr.op(B.RESIZE_BILINEAR, [x, gr.const(np.array(shape[1:3], np.int32), "size")], [y],
              options(S.ResizeBilinearOptionsT, alignCorners=align, halfPixelCenters=half), O.ResizeBilinearOptions)
        gr.outputs = [y]; g[name] = gr

    gr, x = new(); y = gr.tensor((1, 14, 18, 4), "y")
    gr.op(B.RESIZE_NEAREST_NEIGHBOR, [x, gr.const(np.array([14, 18], np.int32), "size")], [y],
          options(S.ResizeNearestNeighborOptionsT), O.ResizeNearestNeighborOptions)
    gr.outputs = [y]; g["resize_nearest"] = gr

    gr, x = new(); x2 = gr.input((1, 7, 9, 3), "input2"); y = gr.tensor((1, 7, 9, 7), "y")
    gr.op(B.CONCATENATION, [x, x2], [y], options(S.ConcatenationOptionsT, axis=3), O.ConcatenationOptions)
    gr.outputs = [y]; g["concatenation_channels"] = gr

    gr, x = new(); y = gr.tensor((1, 63, 4), "y")
    gr.op(B.RESHAPE, [x, gr.const(np.array([1, 63, 4], np.int32), "shape")], [y],
          options(S.ReshapeOptionsT, newShape=[1, 63, 4]), O.ReshapeOptions)
    gr.outputs = [y]; g["reshape"] = gr

    gr, x = new(); y = gr.tensor((1, 1, 1, 4), "y")
    gr.op(B.MEAN, [x, gr.const(np.array([1, 2], np.int32), "axes")], [y], options(S.ReducerOptionsT, keepDims=True),
          O.ReducerOptions)
    gr.outputs = [y]; g["mean_keepdims"] = gr

    gr, x = new(); y = gr.tensor((1, 4), "y")
    gr.op(B.MEAN, [x, gr.const(np.array([1, 2], np.int32), "axes")], [y], options(S.ReducerOptionsT, keepDims=False),
          O.ReducerOptions)
    gr.outputs = [y]; g["mean"] = gr

    gr, x = new((1, 3, 4, 8)); y = gr.tensor((1, 6, 8, 2), "y")
    gr.op(B.DEPTH_TO_SPACE, [x], [y], options(S.DepthToSpaceOptionsT, blockSize=2), O.DepthToSpaceOptions)
    gr.outputs = [y]; g["depth_to_space"] = gr

    gr, x = new((1, 6)); y = gr.tensor((1, 5), "y")
    gr.op(B.FULLY_CONNECTED, [x, gr.const(w(5, 6), "w"), gr.const(w(5), "b")], [y],
          options(S.FullyConnectedOptionsT, fusedActivationFunction=A.RELU), O.FullyConnectedOptions)
    gr.outputs = [y]; g["fully_connected_relu"] = gr

    gr, x = new((1, 2, 3, 6)); y = gr.tensor((1, 5), "y")   # flattens a 4-D input, as hand_landmark's heads
    gr.op(B.FULLY_CONNECTED, [x, gr.const(w(5, 36), "w"), gr.const(w(5), "b")], [y],
          options(S.FullyConnectedOptionsT), O.FullyConnectedOptions)
    gr.outputs = [y]; g["fully_connected_flatten"] = gr

    gr, x = new((1, 10)); y = gr.tensor((1, 10), "y")
    gr.op(B.SOFTMAX, [x], [y], options(S.SoftmaxOptionsT, beta=1.0), O.SoftmaxOptions); gr.outputs = [y]
    g["softmax"] = gr

    # float16 weights through DEQUANTIZE, as MediaPipe's models store them.
    gr, x = new(); h = gr.const(w(6, 1, 1, 4).astype(np.float16), "w_fp16"); wf = gr.tensor((6, 1, 1, 4), "w_dequantized")
    gr.op(B.DEQUANTIZE, [h], [wf]); y = gr.tensor((1, 7, 9, 6), "y")
    gr.op(B.CONV_2D, [x, wf, gr.const(w(6), "b")], [y], options(S.Conv2DOptionsT, padding=P.SAME, strideW=1, strideH=1),
          O.Conv2DOptions)
    gr.outputs = [y]; g["dequantize_fp16_conv"] = gr

    # A sparse float16 constant (dense, dense, dense, CSR as pose_detection's), DENSIFY, DEQUANTIZE, CONV_2D.
    gr, x = new()
    dense = w(6, 1, 1, 4).astype(np.float16); dense[np.abs(dense) < 0.4] = 0
    rows = dense.reshape(6, 4); segments, indices, values = [0], [], []
    for r in rows:
        nz = np.nonzero(r)[0]; indices += list(nz); values += list(r[nz]); segments.append(len(indices))
    t = gr.const(np.array(values, np.float16), "w_sparse"); gr.tensors[t].shape = [6, 1, 1, 4]
    sp = S.SparsityParametersT(); sp.traversalOrder = [0, 1, 2, 3]
    dims = []
    for size in (6, 1, 1):
        d = S.DimensionMetadataT(); d.format = S.DimensionType.DENSE; d.denseSize = size; dims.append(d)
    d = S.DimensionMetadataT(); d.format = S.DimensionType.SPARSE_CSR
    d.arraySegmentsType = S.SparseIndexVector.Uint8Vector; d.arraySegments = S.Uint8VectorT(); d.arraySegments.values = segments
    d.arrayIndicesType = S.SparseIndexVector.Uint8Vector; d.arrayIndices = S.Uint8VectorT(); d.arrayIndices.values = indices
    dims.append(d); sp.dimMetadata = dims; gr.tensors[t].sparsity = sp
    dn = gr.tensor((6, 1, 1, 4), "w_dense", dtype=S.TensorType.FLOAT16); gr.op(B.DENSIFY, [t], [dn])
    wf = gr.tensor((6, 1, 1, 4), "w_dequantized"); gr.op(B.DEQUANTIZE, [dn], [wf])
    y = gr.tensor((1, 7, 9, 6), "y")
    gr.op(B.CONV_2D, [x, wf, gr.const(w(6), "b")], [y], options(S.Conv2DOptionsT, padding=P.SAME, strideW=1, strideH=1),
          O.Conv2DOptions)
    gr.outputs = [y]; g["densify_dequantize_conv"] = gr
    return g

def unsupported_graph():
    """RELU then SIN: the converter must name SIN and its index 1 (no reference values)."""
    gr = Graph(); x = gr.input((1, 4, 4, 3)); r = gr.tensor((1, 4, 4, 3), "r"); y = gr.tensor((1, 4, 4, 3), "y")
    gr.op(B.RELU, [x], [r]); gr.op(B.SIN, [r], [y]); gr.outputs = [y]
    return gr

def floats(a): return [float(f"{v:.9g}") for v in np.asarray(a, np.float32).ravel()]

def custom_to_builtin(data):
    """The model with each Convolution2DTransposeBias rewritten as TRANSPOSE_CONV (+ bias input)."""
    m = S.ModelT.InitFromPackedBuf(bytearray(data), 0)
    codes = m.operatorCodes
    custom = [i for i, c in enumerate(codes) if c.customCode in (b"Convolution2DTransposeBias", "Convolution2DTransposeBias")]
    if not custom: return data, 0
    tc = S.OperatorCodeT(); tc.builtinCode = B.TRANSPOSE_CONV; tc.deprecatedBuiltinCode = B.TRANSPOSE_CONV; tc.version = 3
    codes.append(tc); tc_index = len(codes) - 1
    sg = m.subgraphs[0]; n = 0
    for op in sg.operators:
        if op.opcodeIndex not in custom: continue
        params = np.frombuffer(bytes(bytearray(op.customOptions)), np.int32)
        out_shape = sg.tensors[op.outputs[0]].shape
        b = S.BufferT(); b.data = list(np.array(out_shape, np.int32).tobytes()); m.buffers.append(b)
        t = S.TensorT(); t.shape = [4]; t.type = S.TensorType.INT32; t.buffer = len(m.buffers) - 1; t.name = "output_shape"
        sg.tensors.append(t)
        x, weights, bias = op.inputs[0], op.inputs[1], op.inputs[2]
        op.opcodeIndex = tc_index; op.inputs = [len(sg.tensors) - 1, weights, x, bias]
        op.customOptions = None; op.builtinOptionsType = O.TransposeConvOptions
        op.builtinOptions = options(S.TransposeConvOptionsT, padding=P.SAME if params[0] == 1 else P.VALID,
                                    strideW=int(params[1]), strideH=int(params[2]))
        n += 1
    b = flatbuffers.Builder(1 << 20); b.Finish(m.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output()), n

def run(data, inputs, resolver=OpResolverType.AUTO):
    it = Interpreter(model_content=data, num_threads=2, experimental_op_resolver_type=resolver)
    it.allocate_tensors()
    for d, v in zip(it.get_input_details(), inputs): it.set_tensor(d["index"], v)
    it.invoke()
    return [(d["name"], list(d["shape"]), it.get_tensor(d["index"]).copy()) for d in it.get_output_details()]

# Inputs in [-1, 1] for the models whose metadata normalises with 127.5, 127.5.
SIGNED = {"pose_detection", "face_detection_short_range", "face_detection_full_range_sparse"}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="/usr/local/share/openvision/models")
    ap.add_argument("--image", default=os.path.join(ROOT, "../shared/images/astronaut.png"))
    args = ap.parse_args()
    os.makedirs(OPS, exist_ok=True); os.makedirs(MODELS, exist_ok=True)

    for name, gr in op_graphs().items():
        data = gr.serialize()
        open(os.path.join(OPS, name + ".tflite"), "wb").write(data)
        inputs = [(rng.standard_normal(gr.tensors[i].shape) * 2).astype(np.float32) for i in gr.inputs]
        ref_data, _ = custom_to_builtin(data)
        outs = run(ref_data, inputs)
        json.dump({"inputs": [{"name": gr.tensors[i].name, "shape": list(gr.tensors[i].shape), "values": floats(v)}
                              for i, v in zip(gr.inputs, inputs)],
                   "outputs": [{"name": n, "shape": [int(s) for s in sh], "values": floats(v)} for n, sh, v in outs]},
                  open(os.path.join(OPS, name + ".json"), "w"))
        print(f"op {name}: {len(data)} bytes, outputs {[sh for _, sh, _ in outs]}")

    open(os.path.join(OPS, "unsupported_sin.tflite"), "wb").write(unsupported_graph().serialize())

    image = np.asarray(Image.open(args.image).convert("RGB"))
    H, W = image.shape[:2]
    for file in sorted(os.listdir(args.models)):
        if not file.endswith(".tflite"): continue
        name = file[:-7]
        data = open(os.path.join(args.models, file), "rb").read()
        ref, rewritten = custom_to_builtin(data)
        it = Interpreter(model_content=ref); h, w_ = it.get_input_details()[0]["shape"][1:3]
        sampled = image[(np.arange(h) * H // h)][:, (np.arange(w_) * W // w_)]
        x = sampled.astype(np.float32)[None]
        x = x / np.float32(127.5) - np.float32(1) if name in SIGNED else x / np.float32(255)
        outs = run(ref, [x.astype(np.float32)])
        # TFLite against itself: its builtin kernels without the XNNPACK delegate. Outputs with large values
        # (pose_landmark_full's segmentation logits reach -1800) differ by more than 1e-3 between the two.
        plain = run(ref, [x.astype(np.float32)], OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        result = {"image": os.path.basename(args.image), "normalisation": "p/127.5-1" if name in SIGNED else "p/255",
                  "input_shape": [1, int(h), int(w_), 3], "rewritten_custom_ops": rewritten, "outputs": []}
        for (n, sh, v), (_, _, p) in zip(outs, plain):
            flat = v.astype(np.float32).ravel(); step = max(1, -(-flat.size // 1500))
            result["outputs"].append({"name": n, "shape": [int(s) for s in sh], "step": step,
                                      "values": floats(flat[::step]), "min": float(flat.min()), "max": float(flat.max()),
                                      "mean": float(flat.astype(np.float64).mean()),
                                      "mean_abs": float(np.abs(flat.astype(np.float64)).mean()),
                                      "kernel_spread": float(np.abs(v - p).max())})
        json.dump(result, open(os.path.join(MODELS, name + ".json"), "w"))
        print(f"model {name}: input {h}x{w_}, outputs {[(n, sh) for n, sh, _ in outs]}, rewritten {rewritten}")

if __name__ == "__main__":
    main()
