#!/usr/bin/env python3
"""Fixtures for Core ML's classic model types (Tests/OpenVisionTests/Models/CoreMLClassicTests.swift and the
peer benchmark scripts/bench/coreml_classic_peer.py).

Run in a venv of its own (never in scripts/setup or CI):

    python3 -m venv /tmp/cmc/venv && /tmp/cmc/venv/bin/pip install coremltools==9.0 scikit-learn==1.5.1 \
        xgboost==3.2.0 libsvm-official==3.37.0 numpy
    /tmp/cmc/venv/bin/python scripts/models/coreml_classic_fixtures.py

Writes Tests/Fixtures/coreml/classic/<name>.mlmodel, made by coremltools' own converters (scikit-learn, XGBoost,
LibSVM), its model builders (kNN, array feature extractor, pipelines, NeuralNetworkBuilder) or, where coremltools has
no converter (categorical mapping, a string imputer, a probit GLM), its protobuf classes, and <name>.json: a list of
cases, each the inputs by feature name and the outputs the source library computes for them (scikit-learn's
predict / predict_proba / transform, XGBoost's predict, LibSVM's svm_predict, numpy for the hand-made ones) — never
the converter under test. coremltools cannot run Core ML models off macOS; where Core ML's own rule is not what the
source library does (Core ML picks a binary tree classifier's second class at p >= 0.5; coremltools nudges sklearn's
0.5 leaves below it for that reason) the fixture says so in "note".
"""
import json, os, warnings
import numpy as np

warnings.filterwarnings("ignore")
import coremltools as ct
from coremltools.models import datatypes, MLModel
from coremltools.models.neural_network import NeuralNetworkBuilder
from coremltools.models.pipeline import PipelineRegressor, PipelineClassifier
from coremltools.models.nearest_neighbors import KNearestNeighborsClassifierBuilder
from coremltools.models.array_feature_extractor import create_array_feature_extractor
from coremltools.proto import Model_pb2
from sklearn.datasets import make_classification, make_regression
from sklearn import linear_model, tree, ensemble, svm, neighbors, preprocessing, feature_extraction, impute, pipeline

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests/Fixtures/coreml/classic")
rng = np.random.default_rng(20261128)


def save(name, spec_or_model, cases, note=None):
    spec = spec_or_model.get_spec() if hasattr(spec_or_model, "get_spec") else spec_or_model
    ct.utils.save_spec(spec, os.path.join(OUT, name + ".mlmodel"))
    doc = {"cases": cases}
    if note:
        doc["note"] = note
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    print(f"{name}: {os.path.getsize(os.path.join(OUT, name + '.mlmodel'))} bytes, {len(cases)} cases")


def arr(x):
    return [float(v) for v in np.asarray(x, dtype=np.float64).ravel()]


def array_cases(X, outputs, name="input"):
    """One case per row: the row as a multi-array input, the outputs from `outputs(row_index)`."""
    return [{"inputs": {name: arr(X[i])}, "outputs": outputs(i)} for i in range(len(X))]


def probabilities(labels, p):
    return {str(l): float(v) for l, v in zip(labels, p)}


def regression_data(n=40, features=4, targets=1):
    X, y = make_regression(n_samples=n, n_features=features, n_targets=targets, noise=3.0, random_state=7)
    # float32 values: scikit-learn's trees and XGBoost compare features as float32, Core ML as double.
    return X.astype(np.float32).astype(np.float64), y


def classification_data(n=60, features=4, classes=2):
    X, y = make_classification(n_samples=n, n_features=features, n_informative=3, n_redundant=0, n_classes=classes,
                               n_clusters_per_class=1, random_state=11)
    return X.astype(np.float32).astype(np.float64), y


TEST = 8  # cases per fixture


# ---------------------------------------------------------------------------------------------------------------
# Generalized linear models
# ---------------------------------------------------------------------------------------------------------------
def glm_regressor():
    X, y = regression_data()
    m = linear_model.LinearRegression().fit(X, y)
    c = ct.converters.sklearn.convert(m, "input", "target")
    save("glm_regressor", c, array_cases(X[:TEST], lambda i: {"target": float(m.predict(X[i:i + 1])[0])}))


def glm_regressor_scalars():
    """Three named double inputs (a featureVectorizer pipeline, as Apple's MarsHabitatPricer)."""
    X, y = regression_data(features=3)
    m = linear_model.Ridge(alpha=0.5).fit(X, y)
    c = ct.converters.sklearn.convert(m, ["a", "b", "c"], "price")
    cases = [{"inputs": {"a": float(X[i, 0]), "b": float(X[i, 1]), "c": float(X[i, 2])},
              "outputs": {"price": float(m.predict(X[i:i + 1])[0])}} for i in range(TEST)]
    save("glm_regressor_scalars", c, cases)


def glm_classifier_binary():
    X, y = classification_data()
    labels = np.array(["no", "yes"])[y]
    m = linear_model.LogisticRegression(multi_class="ovr").fit(X, labels)
    c = ct.converters.sklearn.convert(m, "input", "label")
    P = m.predict_proba(X[:TEST])
    save("glm_classifier_binary", c, array_cases(X[:TEST], lambda i: {
        "label": str(m.predict(X[i:i + 1])[0]), "classProbability": probabilities(m.classes_, P[i])}))


def glm_classifier_ovr():
    X, y = classification_data(classes=3)
    m = linear_model.LogisticRegression(multi_class="ovr").fit(X, y + 10)
    c = ct.converters.sklearn.convert(m, "input", "label")
    P = m.predict_proba(X[:TEST])
    save("glm_classifier_ovr", c, array_cases(X[:TEST], lambda i: {
        "label": int(m.predict(X[i:i + 1])[0]), "classProbability": probabilities(m.classes_, P[i])}))


def glm_classifier_probit():
    """A probit GLM (no coremltools converter makes one): p(yes) = Φ(w·x + b), numpy's erf."""
    from math import erf, sqrt
    spec = Model_pb2.Model()
    spec.specificationVersion = 1
    inp = spec.description.input.add(); inp.name = "x"
    inp.type.multiArrayType.shape.append(2); inp.type.multiArrayType.dataType = Model_pb2.ArrayFeatureType.DOUBLE
    out = spec.description.output.add(); out.name = "label"; out.type.stringType.SetInParent()
    out = spec.description.output.add(); out.name = "probs"; out.type.dictionaryType.stringKeyType.SetInParent()
    spec.description.predictedFeatureName = "label"
    spec.description.predictedProbabilitiesName = "probs"
    glm = spec.glmClassifier
    glm.weights.add().value.extend([0.75, -1.25])
    glm.offset.append(0.125)
    glm.postEvaluationTransform = glm.Probit
    glm.classEncoding = glm.ReferenceClass
    glm.stringClassLabels.vector.extend(["no", "yes"])
    cases = []
    for x in rng.uniform(-2, 2, size=(TEST, 2)):
        p = 0.5 * (1 + erf((0.75 * x[0] - 1.25 * x[1] + 0.125) / sqrt(2)))
        cases.append({"inputs": {"x": arr(x)}, "outputs": {"label": "yes" if p > 0.5 else "no",
                                                            "probs": {"no": 1 - p, "yes": p}}})
    save("glm_classifier_probit", spec, cases)


# ---------------------------------------------------------------------------------------------------------------
# Tree ensembles
# ---------------------------------------------------------------------------------------------------------------
def tree_regressor():
    X, y = regression_data()
    m = ensemble.GradientBoostingRegressor(n_estimators=20, max_depth=3, random_state=3).fit(X, y)
    c = ct.converters.sklearn.convert(m, "input", "target")
    save("tree_regressor", c, array_cases(X[:TEST], lambda i: {"target": float(m.predict(X[i:i + 1])[0])}))


def forest_classifier():
    """Three classes: leaves carry one probability per class (random forest)."""
    X, y = classification_data(classes=3)
    m = ensemble.RandomForestClassifier(n_estimators=8, max_depth=4, random_state=5).fit(X, y)
    c = ct.converters.sklearn.convert(m, "input", "label")
    P = m.predict_proba(X[:TEST])
    save("forest_classifier", c, array_cases(X[:TEST], lambda i: {
        "label": int(m.predict(X[i:i + 1])[0]), "classProbability": probabilities(m.classes_, P[i])}))


def boosted_classifier_binary():
    """Two classes, one dimension, logistic transform."""
    X, y = classification_data()
    labels = np.array(["cat", "dog"])[y]
    m = ensemble.GradientBoostingClassifier(n_estimators=15, max_depth=2, random_state=2).fit(X, labels)
    c = ct.converters.sklearn.convert(m, "input", "label")
    P = m.predict_proba(X[:TEST])
    save("boosted_classifier_binary", c, array_cases(X[:TEST], lambda i: {
        "label": str(m.predict(X[i:i + 1])[0]), "classProbability": probabilities(m.classes_, P[i])}))


def xgboost_regressor():
    import xgboost
    X, y = regression_data()
    m = xgboost.XGBRegressor(n_estimators=12, max_depth=3, base_score=0.5).fit(X, y)
    names = [f"f{k}" for k in range(X.shape[1])]
    c = ct.converters.xgboost.convert(m, mode="regressor", feature_names=names, target="target")
    Y = m.predict(X[:TEST], output_margin=True).astype(np.float64)
    cases = [{"inputs": {n: float(X[i, k]) for k, n in enumerate(names)}, "outputs": {"target": float(Y[i])}}
             for i in range(TEST)]
    save("xgboost_regressor", c, cases, note="one double input per feature; XGBoost predicts in float32: compare within 1e-5")


def xgboost_classifier():
    import xgboost
    X, y = classification_data(classes=3)
    m = xgboost.XGBClassifier(n_estimators=10, max_depth=3, objective="multi:softprob", base_score=0.5).fit(X, y)
    c = ct.converters.xgboost.convert(m, mode="classifier", class_labels=[0, 1, 2], target="label",
                                      feature_names=[f"f{k}" for k in range(X.shape[1])])
    P = m.predict_proba(X[:TEST]).astype(np.float64)
    cases = [{"inputs": {f"f{k}": float(X[i, k]) for k in range(X.shape[1])},
              "outputs": {"label": int(np.argmax(P[i])), "classProbability": probabilities([0, 1, 2], P[i])}} for i in range(TEST)]
    save("xgboost_classifier", c, cases, note="XGBoost predicts in float32: compare within 1e-5")


# ---------------------------------------------------------------------------------------------------------------
# Support vector machines
# ---------------------------------------------------------------------------------------------------------------
def svr():
    X, y = regression_data()
    m = svm.SVR(kernel="rbf", gamma=0.2, C=10.0).fit(X, y)
    c = ct.converters.sklearn.convert(m, "input", "target")
    save("svr", c, array_cases(X[:TEST], lambda i: {"target": float(m.predict(X[i:i + 1])[0])}),
         note="ONNX's SVM operators compute in float32: compare within 1e-4")


def svc_probability():
    X, y = classification_data(classes=3)
    m = svm.SVC(kernel="poly", degree=2, gamma=0.3, coef0=1.0, probability=True, random_state=1).fit(X, y)
    c = ct.converters.sklearn.convert(m, "input", "label")
    save("svc_probability", c, array_cases(X[:TEST], lambda i: {"label": int(m.predict(X[i:i + 1])[0])}),
         note="label from scikit-learn's predict (libsvm's vote); probabilities are checked against libsvm in svc_libsvm")


def svc_libsvm():
    """LibSVM's own model (RBF, probabilities): labels and probabilities from svm_predict(..., '-b 1')."""
    import libsvm
    from libsvm import svmutil, svm as svm_module
    # coremltools 9 reads the constants libsvm-official 3.37 moved into enums, and a version it no longer has.
    libsvm.__version__ = "3.37.0"
    for constant in list(svm_module.svm_forms) + list(svm_module.kernel_names):
        setattr(svm_module, constant.name, int(constant))
    X, y = classification_data(classes=3)
    prob = svmutil.svm_problem(list(y), [list(map(float, r)) for r in X])
    m = svmutil.svm_train(prob, "-s 0 -t 2 -g 0.25 -c 4 -b 1 -q")
    c = ct.converters.libsvm.convert(m, input_names="x", target_name="label", probability="probabilities",
                                     input_length=X.shape[1])
    labels, _, probs = svmutil.svm_predict([0] * TEST, [list(map(float, r)) for r in X[:TEST]], m, "-b 1 -q")
    order = m.get_labels()
    cases = [{"inputs": {"x": arr(X[i])}, "outputs": {"label": int(labels[i]),
                                                       "probabilities": probabilities(order, probs[i])}}
             for i in range(TEST)]
    save("svc_libsvm", c, cases, note="ONNX's SVM operators compute in float32: compare within 1e-4")


# ---------------------------------------------------------------------------------------------------------------
# Nearest neighbours
# ---------------------------------------------------------------------------------------------------------------
def knn_sklearn():
    X, y = classification_data(classes=3)
    m = neighbors.KNeighborsClassifier(n_neighbors=3).fit(X, y)
    c = ct.converters.sklearn.convert(m, "input", "label")
    save("knn_sklearn", c, array_cases(X[-TEST:] + 0.05, lambda i: {"label": int(m.predict(X[-TEST + i:][:1] + 0.05)[0])}))


def knn_inverse_distance():
    """coremltools' builder: string labels, inverse-distance weighting, k = 4, and a default label. Expected labels from
    numpy: the 4 nearest samples by squared Euclidean distance (the index's distance function), each voting 1 / that
    distance, as NearestNeighbors.proto describes it (coremltools converts no scikit-learn model to this weighting)."""
    samples = rng.normal(size=(24, 3)).astype(np.float32)
    labels = [["red", "green", "blue"][i % 3] for i in range(24)]
    b = KNearestNeighborsClassifierBuilder(input_name="features", output_name="color", number_of_dimensions=3,
                                           default_class_label="none", weighting_scheme="inverse_distance",
                                           index_type="linear")
    b.add_samples(samples, labels)
    spec = b.spec
    spec.kNearestNeighborsClassifier.numberOfNeighbors.defaultValue = 4
    queries = rng.normal(size=(TEST, 3)).astype(np.float32)
    order = ["red", "green", "blue"]
    cases = []
    for q in queries:
        d = ((samples.astype(np.float64) - q.astype(np.float64)) ** 2).sum(axis=1)
        votes = {}
        for i in np.argsort(d, kind="stable")[:4]:
            votes[labels[i]] = votes.get(labels[i], 0) + 1 / d[i]
        total = sum(votes.values())
        cases.append({"inputs": {"features": arr(q)}, "outputs": {
            "color": max(order, key=lambda l: (votes.get(l, 0), -order.index(l))),
            "colorProbs": {l: votes.get(l, 0) / total for l in order}}})
    save("knn_inverse_distance", spec, cases)


def knn_empty():
    b = KNearestNeighborsClassifierBuilder(input_name="features", output_name="label", number_of_dimensions=5,
                                           default_class_label="unknown")
    save("knn_empty", b.spec, [{"inputs": {"features": arr(rng.normal(size=5))}, "outputs": {"label": "unknown"}}])


# ---------------------------------------------------------------------------------------------------------------
# Feature engineering
# ---------------------------------------------------------------------------------------------------------------
def scaler_and_normalizer_pipeline():
    """StandardScaler → Normalizer(l1) → LinearRegression: a pipeline regressor of three classic models."""
    X, y = regression_data()
    m = pipeline.Pipeline([("scale", preprocessing.StandardScaler()), ("norm", preprocessing.Normalizer(norm="l1")),
                           ("fit", linear_model.LinearRegression())]).fit(X, y)
    c = ct.converters.sklearn.convert(m, "input", "target")
    save("scaler_normalizer_glm", c, array_cases(X[:TEST], lambda i: {"target": float(m.predict(X[i:i + 1])[0])}))


def normalizers():
    X, _ = regression_data()
    for norm in ["l2", "max"]:
        m = preprocessing.Normalizer(norm=norm).fit(X)
        c = ct.converters.sklearn.convert(m, [("input", datatypes.Array(X.shape[1]))], "output")
        Y = m.transform(X[:TEST])
        note = "Core ML's LMax divides by the largest value (scikit-learn by the largest absolute value): " \
               "cases have a positive largest value" if norm == "max" else None
        rows = [i for i in range(len(X)) if norm != "max" or X[i].max() >= abs(X[i].min())][:TEST]
        Y = m.transform(X[rows])
        save(f"normalizer_{norm}", c, [{"inputs": {"input": arr(X[r])}, "outputs": {"output": arr(Y[k])}}
                                       for k, r in enumerate(rows)], note)


def imputer():
    X, _ = regression_data()
    X[::3, 1] = np.nan
    m = impute.SimpleImputer(strategy="mean").fit(X)
    try:
        c = ct.converters.sklearn.convert(m, [("input", datatypes.Array(X.shape[1]))], "output")
    except Exception as e:  # coremltools 9 knows sklearn's old Imputer; build the same spec from SimpleImputer's values
        spec = Model_pb2.Model()
        spec.specificationVersion = 1
        i = spec.description.input.add(); i.name = "input"
        i.type.multiArrayType.shape.append(X.shape[1]); i.type.multiArrayType.dataType = Model_pb2.ArrayFeatureType.DOUBLE
        o = spec.description.output.add(); o.name = "output"
        o.type.multiArrayType.shape.append(X.shape[1]); o.type.multiArrayType.dataType = Model_pb2.ArrayFeatureType.DOUBLE
        spec.imputer.imputedDoubleArray.vector.extend(m.statistics_)
        spec.imputer.replaceDoubleValue = float("nan")
        c = spec
    rows = X[:TEST]
    Y = m.transform(rows)
    save("imputer_mean", c, [{"inputs": {"input": [None if np.isnan(v) else float(v) for v in rows[k]]},
                              "outputs": {"output": arr(Y[k])}} for k in range(len(rows))],
         "null in an input is NaN")


def string_imputer_and_mapping():
    """A string imputer ("" → "medium") then a categorical mapping to int64, as a plain pipeline (protobuf classes)."""
    def feature(container, name, kind):
        f = container.add(); f.name = name
        getattr(f.type, kind).SetInParent()
    p = Model_pb2.Model(); p.specificationVersion = 1
    feature(p.description.input, "size", "stringType"); feature(p.description.output, "code", "int64Type")
    imp = p.pipeline.models.add(); imp.specificationVersion = 1
    feature(imp.description.input, "size", "stringType"); feature(imp.description.output, "filled", "stringType")
    imp.imputer.imputedStringValue = "medium"; imp.imputer.replaceStringValue = ""
    cm = p.pipeline.models.add(); cm.specificationVersion = 1
    feature(cm.description.input, "filled", "stringType"); feature(cm.description.output, "code", "int64Type")
    for k, v in [("small", 1), ("medium", 2), ("large", 3)]:
        cm.categoricalMapping.stringToInt64Map.map[k] = v
    cm.categoricalMapping.int64Value = -7
    table = {"small": 1, "medium": 2, "large": 3}
    cases = [{"inputs": {"size": s}, "outputs": {"code": table.get(s or "medium", -7)}}
             for s in ["small", "", "large", "medium", "huge"]]
    save("string_imputer_mapping", p, cases)


def int_to_string_mapping():
    def feature(container, name, kind):
        f = container.add(); f.name = name
        getattr(f.type, kind).SetInParent()
    m = Model_pb2.Model(); m.specificationVersion = 1
    feature(m.description.input, "code", "int64Type"); feature(m.description.output, "name", "stringType")
    for k, v in [(4, "four"), (9, "nine")]:
        m.categoricalMapping.int64ToStringMap.map[k] = v
    m.categoricalMapping.strValue = "other"
    save("int_to_string_mapping", m, [{"inputs": {"code": c}, "outputs": {"name": {4: "four", 9: "nine"}.get(c, "other")}}
                                      for c in [4, 9, 5]])


def one_hot_dict_vectorizer():
    """DictVectorizer (string keys) → GLM classifier: a dictionary input."""
    data = [{"red": 1.0, "size": 2.5}, {"blue": 1.0, "size": 0.5}, {"red": 1.0, "size": 3.0}, {"green": 1.0, "size": 1.0},
            {"blue": 1.0, "size": 1.5}, {"green": 1.0, "size": 2.0}, {"red": 1.0, "size": 0.25}, {"blue": 1.0, "size": 2.0}]
    y = ["a", "b", "a", "b", "b", "a", "b", "a"]
    m = pipeline.Pipeline([("dv", feature_extraction.DictVectorizer(sparse=False)),
                           ("lr", linear_model.LogisticRegression(multi_class="ovr"))]).fit(data, y)
    c = ct.converters.sklearn.convert(m, "input", "label")
    P = m.predict_proba(data)
    save("dict_vectorizer_glm", c, [{"inputs": {"input": data[i]}, "outputs": {
        "label": str(m.predict([data[i]])[0]), "classProbability": probabilities(m.classes_, P[i])}} for i in range(len(data))])


def one_hot_encoder():
    """coremltools' OneHotEncoder conversion: an int64 input, ignore unknown."""
    spec = Model_pb2.Model(); spec.specificationVersion = 1
    i = spec.description.input.add(); i.name = "category"; i.type.int64Type.SetInParent()
    o = spec.description.output.add(); o.name = "encoded"
    o.type.multiArrayType.shape.append(3); o.type.multiArrayType.dataType = Model_pb2.ArrayFeatureType.DOUBLE
    spec.oneHotEncoder.int64Categories.vector.extend([3, 7, 11])
    spec.oneHotEncoder.handleUnknown = spec.oneHotEncoder.IgnoreUnknown
    save("one_hot_encoder", spec, [{"inputs": {"category": c}, "outputs": {"encoded": [float(c == v) for v in [3, 7, 11]]}}
                                   for c in [7, 3, 11, 5]])


def array_feature_extractor():
    spec = create_array_feature_extractor([("input", datatypes.Array(5))], "picked", [4, 0, 2])
    xs = rng.normal(size=(3, 5))
    save("array_feature_extractor", spec, [{"inputs": {"input": arr(x)}, "outputs": {"picked": arr(x[[4, 0, 2]])}} for x in xs])


# ---------------------------------------------------------------------------------------------------------------
# A neural network feeding classic models
# ---------------------------------------------------------------------------------------------------------------
def network_then_glm():
    """NeuralNetworkBuilder (inner product + ReLU, float32) → GLM regressor (double): a pipeline regressor."""
    w = rng.normal(size=(4, 3)).astype(np.float32)
    b = rng.normal(size=4).astype(np.float32)
    nn = NeuralNetworkBuilder([("x", datatypes.Array(3))], [("hidden", datatypes.Array(4))], disable_rank5_shape_mapping=True)
    nn.add_inner_product("fc", w, b, input_channels=3, output_channels=4, has_bias=True, input_name="x", output_name="fc")
    nn.add_activation("relu", "RELU", "fc", "hidden")
    nn_spec = nn.spec
    nn_spec.description.output[0].type.multiArrayType.dataType = Model_pb2.ArrayFeatureType.FLOAT32
    glm = Model_pb2.Model(); glm.specificationVersion = 4
    i = glm.description.input.add(); i.name = "hidden"
    i.type.multiArrayType.shape.append(4); i.type.multiArrayType.dataType = Model_pb2.ArrayFeatureType.FLOAT32
    o = glm.description.output.add(); o.name = "y"; o.type.doubleType.SetInParent()
    coef = [0.5, -1.5, 2.0, 0.25]
    glm.glmRegressor.weights.add().value.extend(coef)
    glm.glmRegressor.offset.append(-0.75)
    p = PipelineRegressor([("x", datatypes.Array(3))], "y")
    p.add_model(nn_spec)
    p.add_model(glm)
    cases = []
    for x in rng.normal(size=(TEST, 3)).astype(np.float32):
        hidden = np.maximum(w.astype(np.float32) @ x + b, 0).astype(np.float32)
        cases.append({"inputs": {"x": arr(x)}, "outputs": {"y": float(np.dot(hidden.astype(np.float64), coef) - 0.75)}})
    save("network_then_glm", p.spec, cases, "the network computes in float32: compare within 1e-5")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for fn in [glm_regressor, glm_regressor_scalars, glm_classifier_binary, glm_classifier_ovr, glm_classifier_probit,
               tree_regressor, forest_classifier, boosted_classifier_binary, xgboost_regressor, xgboost_classifier, svr,
               svc_probability, svc_libsvm, knn_sklearn, knn_inverse_distance, knn_empty, scaler_and_normalizer_pipeline,
               normalizers, imputer, string_imputer_and_mapping, int_to_string_mapping, one_hot_dict_vectorizer,
               one_hot_encoder, array_feature_extractor, network_then_glm]:
        fn()
