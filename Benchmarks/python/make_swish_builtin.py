#!/usr/bin/env python3
"""The peer graph of the custom-layer benchmark (scripts/bench coreml-custom): hollance's NeuralMcNeuralNet.mlmodel with
its custom `Swish` layer replaced by Core ML's own layers, x * sigmoid(x) as an `activation` (sigmoid) and a
`multiply`, which the converter turns into ONNX Sigmoid and Mul. Usage: make_swish_builtin.py IN.mlmodel OUT.mlmodel
(needs coremltools)."""
import sys, warnings

warnings.filterwarnings("ignore")
from coremltools.models.utils import load_spec, save_spec
from coremltools.proto import NeuralNetwork_pb2

spec = load_spec(sys.argv[1])
layers = spec.neuralNetwork.layers
index = next(i for i, l in enumerate(layers) if l.WhichOneof("layer") == "custom")
custom = layers[index]
x, y = custom.input[0], custom.output[0]
sig = NeuralNetwork_pb2.NeuralNetworkLayer(name=custom.name + "_sigmoid", input=[x], output=[custom.name + "_sig"])
sig.activation.sigmoid.SetInParent()
mul = NeuralNetwork_pb2.NeuralNetworkLayer(name=custom.name + "_mul", input=[x, custom.name + "_sig"], output=[y])
mul.multiply.SetInParent()
rest = list(layers)
del layers[:]
layers.extend(rest[:index] + [sig, mul] + rest[index + 1:])
save_spec(spec, sys.argv[2])
