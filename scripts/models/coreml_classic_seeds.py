#!/usr/bin/env python3
"""Seeds for the coreml-classic fuzz target (Fuzz/coreml-classic/main.swift) from the classic fixtures
(Tests/Fixtures/coreml/classic/*.mlmodel, see coreml_classic_fixtures.py): each classic model, or classic sub-model of a
pipeline, as [type byte, description byte, parameter message], the description byte chosen so that the target wraps the
parameters in inputs and outputs like the fixture's. Run in the fixtures' venv:

    /tmp/cmc/venv/bin/python scripts/models/coreml_classic_seeds.py
"""
import glob, os
import coremltools as ct

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Fuzz/corpus/coreml-classic")
# CoreMLClassicModel.ModelType.allCases, in order.
TYPES = ["glmRegressor", "supportVectorRegressor", "treeEnsembleRegressor", "glmClassifier", "supportVectorClassifier",
         "treeEnsembleClassifier", "kNearestNeighborsClassifier", "oneHotEncoder", "imputer", "featureVectorizer",
         "dictVectorizer", "scaler", "categoricalMapping", "normalizer", "arrayFeatureExtractor"]
INPUT_KINDS = {"multiArrayType": 0, "doubleType": 1, "int64Type": 2, "stringType": 3, "dictionaryType": 4}
OUTPUT_KINDS = {"multiArrayType": 0, "doubleType": 1, "int64Type": 2, "stringType": 3}


def description_byte(spec):
    first = spec.description.input[0].type
    kind = INPUT_KINDS.get(first.WhichOneof("Type"), 0)
    width = first.multiArrayType.shape[0] if first.WhichOneof("Type") == "multiArrayType" and first.multiArrayType.shape else 1
    out = spec.description.output[0].type.WhichOneof("Type")
    for b in range(256):
        if b % 5 != kind or 1 + (b >> 3) % 16 != min(width, 16):
            continue
        if TYPES.index(spec.WhichOneof("Type")) in (3, 4, 5, 6):
            if (b & 0x80 == 0) == (out == "stringType"):
                return b
        elif (b >> 5) % 4 == OUTPUT_KINDS.get(out, 0):
            return b
    return kind


def classic(spec):
    t = spec.WhichOneof("Type")
    if t in TYPES:
        yield spec
    elif t and t.startswith("pipeline"):
        p = getattr(spec, t)
        for m in (p.models if t == "pipeline" else p.pipeline.models):
            yield from classic(m)


os.makedirs(OUT, exist_ok=True)
for path in sorted(glob.glob(os.path.join(ROOT, "Tests/Fixtures/coreml/classic/*.mlmodel"))):
    for i, spec in enumerate(classic(ct.utils.load_spec(path))):
        t = spec.WhichOneof("Type")
        seed = bytes([TYPES.index(t), description_byte(spec)]) + getattr(spec, t).SerializeToString()
        name = f"{os.path.splitext(os.path.basename(path))[0]}-{i}-{t}"
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(seed)
        print(name, len(seed))
