#!/usr/bin/env python3
"""The peer graph of the custom-layer benchmark (scripts/bench coreml-custom): hollance's NeuralMcNeuralNet.mlmodel with
its custom `Swish` layer replaced by Core ML's own layers, x * sigmoid(x) as an `activation` (sigmoid) and a
`multiply`, which the converter turns into ONNX Sigmoid and Mul; with `--identity`, by a `copy` layer (ONNX Identity:
the graph without Swish, to tell the custom layer's bridge from the rest of the graph). Usage:
make_swish_builtin.py [--identity] IN.mlmodel OUT.mlmodel (needs coremltools)."""
import sys, warnings

warnings.filterwarnings("ignore")
from coremltools.models.utils import load_spec, save_spec
from coremltools.proto import NeuralNetwork_pb2

identity = sys.argv[1] == "--identity"
args = sys.argv[2:] if identity else sys.argv[1:]
spec = load_spec(args[0])
layers = spec.neuralNetwork.layers
index = next(i for i, l in enumerate(layers) if l.WhichOneof("layer") == "custom")
custom = layers[index]
x, y = custom.input[0], custom.output[0]
sig = NeuralNetwork_pb2.NeuralNetworkLayer(name=custom.name + "_sigmoid", input=[x], output=[custom.name + "_sig"])
sig.activation.sigmoid.SetInParent()
mul = NeuralNetwork_pb2.NeuralNetworkLayer(name=custom.name + "_mul", input=[x, custom.name + "_sig"], output=[y])
mul.multiply.SetInParent()
copy = NeuralNetwork_pb2.NeuralNetworkLayer(name=custom.name + "_copy", input=[x], output=[y])
copy.copy.SetInParent()
rest = list(layers)
del layers[:]
layers.extend(rest[:index] + ([copy] if identity else [sig, mul]) + rest[index + 1:])
save_spec(spec, args[1])
