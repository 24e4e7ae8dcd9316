#!/usr/bin/env python3
"""Fixtures for Core ML's updatable models (MLUpdateTask: Tests/VisionCompatTests/MLUpdateTaskTests.swift).

Run in a venv of its own (never in scripts/setup or CI):

    python3 -m venv /tmp/cmc/venv && /tmp/cmc/venv/bin/pip install coremltools==9.0 numpy
    /tmp/cmc/venv/bin/python scripts/models/coreml_updatable_fixtures.py

Writes Tests/Fixtures/coreml/updatable/<name>.mlmodel, built with coremltools' NeuralNetworkBuilder (`make_updatable`,
`set_categorical_cross_entropy_loss` / `set_mean_squared_error_loss`, `set_sgd_optimizer` / `set_adam_optimizer`,
`set_epochs`, `set_shuffle`) and KNearestNeighborsClassifierBuilder, and <name>.json: the training data, and what a
numpy transcription of the same training steps gives (the updated weights of each updatable layer, and the outputs of
the updated model for a few inputs). The rules transcribed (docs/coreml.md, "Updatable models"): mini-batches in file
order (shuffle off in these fixtures), the last one possibly smaller; the gradient of a mini-batch is the mean of its
examples'; categorical cross-entropy -log p[target] on a softmax output (gradient p - onehot on the softmax input);
mean squared error mean((y - t)^2) over an example's elements (gradient 2 (y - t) / n); SGD with momentum
v = mu v + g, w -= lr v; Adam with bias correction, w -= lr m^ / (sqrt(v^) + eps).
"""
import json, os, warnings
import numpy as np

warnings.filterwarnings("ignore")
from coremltools.models import datatypes
from coremltools.models.neural_network import NeuralNetworkBuilder, SgdParams, AdamParams
from coremltools.models.nearest_neighbors import KNearestNeighborsClassifierBuilder

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests/Fixtures/coreml/updatable")
rng = np.random.default_rng(20261129)


def save(name, spec, data):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name + ".mlmodel"), "wb") as f:
        f.write(spec.SerializeToString())
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(data, f, indent=1)


def f32(a):
    return [float(v) for v in np.asarray(a, dtype=np.float32).ravel()]


def softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


def dense_classifier():
    """features[4] -> dense1 (6, updatable) -> relu -> dense2 (3, updatable) -> softmax: a classifier with string
    labels, categorical cross-entropy on the probabilities, SGD lr 0.1 / momentum 0.9 / mini-batches of 4, 3 epochs."""
    labels = ["cat", "dog", "fox"]
    b = NeuralNetworkBuilder([("features", datatypes.Array(4))], [("probs", datatypes.Array(3))],
                             mode="classifier", disable_rank5_shape_mapping=True)
    w1 = rng.normal(scale=0.5, size=(6, 4)).astype(np.float32)
    b1 = rng.normal(scale=0.1, size=6).astype(np.float32)
    w2 = rng.normal(scale=0.5, size=(3, 6)).astype(np.float32)
    b2 = rng.normal(scale=0.1, size=3).astype(np.float32)
    b.add_inner_product("dense1", w1, b1, 4, 6, True, "features", "hidden")
    b.add_activation("relu1", "RELU", "hidden", "hidden_relu")
    b.add_inner_product("dense2", w2, b2, 6, 3, True, "hidden_relu", "logits")
    b.add_softmax("softmax", "logits", "probs")
    b.set_class_labels(labels, predicted_feature_name="label", prediction_blob="probs")
    b.make_updatable(["dense1", "dense2"])
    b.set_categorical_cross_entropy_loss(name="loss", input="probs")
    b.set_sgd_optimizer(SgdParams(lr=0.1, batch=4, momentum=0.9))
    b.set_epochs(3)
    b.spec.neuralNetworkClassifier.updateParams.shuffle.defaultValue = False

    n = 10
    centers = rng.normal(scale=2.0, size=(3, 4))
    y = np.arange(n) % 3
    X = (centers[y] + rng.normal(scale=0.5, size=(n, 4))).astype(np.float32)
    params = [w1.astype(np.float64), b1.astype(np.float64), w2.astype(np.float64), b2.astype(np.float64)]
    velocity = [np.zeros_like(p) for p in params]
    losses = []
    for epoch in range(3):
        for start in range(0, n, 4):
            grads = [np.zeros_like(p) for p in params]
            batch = range(start, min(start + 4, n))
            loss = 0.0
            for i in batch:
                x = X[i].astype(np.float64)
                h = params[0] @ x + params[1]
                r = np.maximum(h, 0)
                p = softmax(params[2] @ r + params[3])
                loss += -np.log(p[y[i]])
                dz = p.copy()
                dz[y[i]] -= 1
                grads[2] += np.outer(dz, r)
                grads[3] += dz
                dr = params[2].T @ dz
                dh = dr * (h > 0)
                grads[0] += np.outer(dh, x)
                grads[1] += dh
            losses.append(loss / len(batch))
            for k in range(4):
                velocity[k] = 0.9 * velocity[k] + grads[k] / len(batch)
                params[k] = params[k] - 0.1 * velocity[k]
    queries = (centers + rng.normal(scale=0.3, size=(3, 4))).astype(np.float32)
    probs = [softmax(params[2] @ np.maximum(params[0] @ q + params[1], 0) + params[3]) for q in queries]
    save("dense_classifier", b.spec, {
        "training": [{"features": f32(X[i]), "label": labels[y[i]]} for i in range(n)],
        "weights": {"dense1": f32(params[0]), "dense1_bias": f32(params[1]),
                    "dense2": f32(params[2]), "dense2_bias": f32(params[3])},
        "miniBatchLosses": [float(v) for v in losses],
        "queries": [f32(q) for q in queries],
        "probabilities": [{labels[k]: float(p[k]) for k in range(3)} for p in probs],
    })


def dense_regressor():
    """x[3] -> dense0 (5, not updatable) -> relu -> dense1 (2, updatable) = y: a regressor trained with mean squared
    error on y against y_true, Adam lr 0.05 / mini-batches of 3, 2 epochs. The part before dense1 runs on ONNX
    Runtime."""
    b = NeuralNetworkBuilder([("x", datatypes.Array(3))], [("y", datatypes.Array(2))],
                             disable_rank5_shape_mapping=True)
    w0 = rng.normal(scale=0.7, size=(5, 3)).astype(np.float32)
    b0 = rng.normal(scale=0.1, size=5).astype(np.float32)
    w1 = rng.normal(scale=0.5, size=(2, 5)).astype(np.float32)
    b1 = rng.normal(scale=0.1, size=2).astype(np.float32)
    b.add_inner_product("dense0", w0, b0, 3, 5, True, "x", "h")
    b.add_activation("relu0", "RELU", "h", "hr")
    b.add_inner_product("dense1", w1, b1, 5, 2, True, "hr", "y")
    b.make_updatable(["dense1"])
    b.set_mean_squared_error_loss(name="mse", input_feature=("y", datatypes.Array(2)))
    b.set_adam_optimizer(AdamParams(lr=0.05, batch=3, beta1=0.9, beta2=0.999, eps=1e-8))
    b.set_epochs(2)
    b.spec.neuralNetwork.updateParams.shuffle.defaultValue = False

    n = 7
    X = rng.normal(size=(n, 3)).astype(np.float32)
    T = rng.normal(size=(n, 2)).astype(np.float64)
    w, bias = w1.astype(np.float64), b1.astype(np.float64)
    m = [np.zeros_like(w), np.zeros_like(bias)]
    v = [np.zeros_like(w), np.zeros_like(bias)]
    t = 0
    for epoch in range(2):
        for start in range(0, n, 3):
            batch = range(start, min(start + 3, n))
            gw, gb = np.zeros_like(w), np.zeros_like(bias)
            for i in batch:
                hr = np.maximum(w0.astype(np.float64) @ X[i] + b0, 0)
                yv = w @ hr + bias
                dy = 2 * (yv - T[i]) / len(yv)
                gw += np.outer(dy, hr)
                gb += dy
            t += 1
            for k, (p, g) in enumerate(((w, gw), (bias, gb))):
                g = g / len(batch)
                m[k] = 0.9 * m[k] + 0.1 * g
                v[k] = 0.999 * v[k] + 0.001 * g * g
                mh, vh = m[k] / (1 - 0.9 ** t), v[k] / (1 - 0.999 ** t)
                p -= 0.05 * mh / (np.sqrt(vh) + 1e-8)
    queries = rng.normal(size=(3, 3)).astype(np.float32)
    outs = [w @ np.maximum(w0.astype(np.float64) @ q + b0, 0) + bias for q in queries]
    save("dense_regressor", b.spec, {
        "training": [{"x": f32(X[i]), "y_true": [float(v) for v in T[i]]} for i in range(n)],
        "weights": {"dense1": f32(w), "dense1_bias": f32(bias)},
        "queries": [f32(q) for q in queries],
        "outputs": [f32(o) for o in outs],
    })


def conv_updatable():
    """An updatable convolution: a valid Core ML file whose updatable layer is not an innerProduct (refused)."""
    b = NeuralNetworkBuilder([("x", datatypes.Array(1, 4, 4))], [("y", datatypes.Array(2, 4, 4))],
                             disable_rank5_shape_mapping=True)
    W = rng.normal(size=(3, 3, 1, 2)).astype(np.float32)
    b.add_convolution("conv", 1, 2, 3, 3, 1, 1, "same", 1, W, None, False, input_name="x", output_name="y")
    b.make_updatable(["conv"])
    b.set_mean_squared_error_loss(name="mse", input_feature=("y", datatypes.Array(2, 4, 4)))
    b.set_sgd_optimizer(SgdParams(lr=0.01, batch=1))
    b.set_epochs(1)
    save("conv_updatable", b.spec, {})


def knn_updatable():
    """coremltools' kNN builder (updatable as it makes it): 4 dimensions, k = 3, string labels, empty index."""
    b = KNearestNeighborsClassifierBuilder(input_name="features", output_name="label", number_of_dimensions=4,
                                           default_class_label="unknown", k=3, weighting_scheme="uniform",
                                           index_type="linear")
    assert b.spec.isUpdatable and [t.name for t in b.spec.description.trainingInput] == ["features", "label"]
    samples = {"north": [0, 5, 0, 0], "south": [0, -5, 0, 0], "east": [5, 0, 0, 0]}
    training = []
    for label, center in samples.items():
        for _ in range(3):
            training.append({"features": f32(np.array(center) + rng.normal(scale=0.3, size=4)), "label": label})
    save("knn_updatable", b.spec, {"training": training,
                                   "queries": [[0.2, 4.5, 0.1, 0], [0.1, -4.8, 0, 0.2], [4.4, 0.3, 0, 0]],
                                   "labels": ["north", "south", "east"]})


for make in (dense_classifier, dense_regressor, conv_updatable, knn_updatable):
    make()
print("wrote", OUT)
