#!/usr/bin/env python3
"""Reference results of MediaPipe Python 0.10.14 (on the wheel's own model files, run by MediaPipe's TFLite
runtime) for the face-mesh, iris, 3D body pose and person-instance tests, and the peer of their benchmarks.

    python Benchmarks/python/mediapipe_people_reference.py faces IMAGES...  > faces.json
    python Benchmarks/python/mediapipe_people_reference.py pose3d IMAGES... > pose3d.json
    python Benchmarks/python/mediapipe_people_reference.py bench faces|pose3d RUNS IMAGES...
    python Benchmarks/python/mediapipe_people_reference.py mirror IMAGES...
    python Benchmarks/python/mediapipe_people_reference.py fixtures ASTRONAUT OUTDIR

faces: mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=20, refine_landmarks=False)
(face_detection_short_range.tflite + face_landmark.tflite): per image and face the 468 landmarks (x, y normalised,
top-left origin; z in x's scale, as MediaPipe gives them), and each eye's 5 iris landmarks from iris_landmark.tflite
run as iris_landmark_left_and_right_cpu.pbtxt runs it: the eye's region from mesh points 33/133 (image-left eye)
and 362/263 (image-right eye, seen mirrored), squared and scaled 2.3x, 64 x 64, values 0...1. The Python wheel
lacks the iris graph's ImageCroppingCalculator, so the crop is ImageToTensorCalculator's (one rotated warp, as the
face mesh's), and the mirrored eye is read from the mirrored image (the same pixels: mirroring the image and the
region mirrors the crop).
pose3d: mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, enable_segmentation=True): the 33
landmarks (x, y, visibility), the 33 world landmarks (metres, hip-centred: x, y, z) and the segmentation mask
thresholded at 0.5, run-length encoded row-major (alternating runs of 0 and 1, starting with 0).
mirror: the face mesh's left-right mirror map (for FaceConstellation.mirrorPairs): each mesh point's nearest point on
the mesh of the mirrored image, mirrored back, voted over the images' first faces; prints the 468 indices.
fixtures: the face-mesh test images made from the shared astronaut photo (210 x 210): face-rot+45.jpg and
face-rot-45.jpg (turned 45 degrees about the centre onto a 300 x 300 canvas, replicated border), face-cut.jpg (the face
half outside the left edge), face-tiny.jpg (the photo at 16 x 16 on a 320 x 240 gray canvas), faces-20.jpg (20 copies
of the face cropped to 130 x 130, 5 x 4: 650 x 520).
bench: one JSON line per file, the median ms over RUNS after one warm-up (file read + decode + process, as
bench_pose.py), faces or poses found.
Needs mediapipe==0.10.14 (in a venv of its own; never part of setup or CI: the tests read the committed JSON).
"""
import json
import os
import statistics
import sys
import time

import cv2
import mediapipe as mp
import numpy as np
from mediapipe.framework.formats import landmark_pb2

IRIS_MODEL = os.path.join(os.path.dirname(mp.__file__), "modules/iris_landmark/iris_landmark.tflite")

IRIS_GRAPH = """
input_stream: "image"
input_stream: "boundary"
output_stream: "iris"
node { calculator: "ImagePropertiesCalculator" input_stream: "IMAGE:image" output_stream: "SIZE:size" }
node { calculator: "LandmarksToDetectionCalculator" input_stream: "NORM_LANDMARKS:boundary" output_stream: "DETECTION:det" }
node { calculator: "DetectionsToRectsCalculator" input_stream: "DETECTION:det" input_stream: "IMAGE_SIZE:size"
  output_stream: "NORM_RECT:raw_roi"
  options: { [mediapipe.DetectionsToRectsCalculatorOptions.ext] { rotation_vector_start_keypoint_index: 0
    rotation_vector_end_keypoint_index: 1 rotation_vector_target_angle_degrees: 0 } } }
node { calculator: "RectTransformationCalculator" input_stream: "NORM_RECT:raw_roi" input_stream: "IMAGE_SIZE:size"
  output_stream: "roi"
  options: { [mediapipe.RectTransformationCalculatorOptions.ext] { scale_x: 2.3 scale_y: 2.3 square_long: true } } }
node { calculator: "ImageToTensorCalculator" input_stream: "IMAGE:image" input_stream: "NORM_RECT:roi"
  output_stream: "TENSORS:tensors"
  options: { [mediapipe.ImageToTensorCalculatorOptions.ext] { output_tensor_width: 64 output_tensor_height: 64
    output_tensor_float_range { min: 0.0 max: 1.0 } border_mode: BORDER_REPLICATE } } }
node { calculator: "InferenceCalculator" input_stream: "TENSORS:tensors" output_stream: "TENSORS:out"
  options: { [mediapipe.InferenceCalculatorOptions.ext] { model_path: "%s" delegate { xnnpack {} } } } }
node { calculator: "SplitTensorVectorCalculator" input_stream: "out" output_stream: "eye_t" output_stream: "iris_t"
  options: { [mediapipe.SplitVectorCalculatorOptions.ext] { ranges: { begin: 0 end: 1 } ranges: { begin: 1 end: 2 } } } }
node { calculator: "TensorsToLandmarksCalculator" input_stream: "TENSORS:iris_t" output_stream: "NORM_LANDMARKS:iris_n"
  options: { [mediapipe.TensorsToLandmarksCalculatorOptions.ext] { num_landmarks: 5 input_image_width: 64
    input_image_height: 64 } } }
node { calculator: "LandmarkProjectionCalculator" input_stream: "NORM_LANDMARKS:iris_n" input_stream: "NORM_RECT:roi"
  output_stream: "NORM_LANDMARKS:iris" }
""" % IRIS_MODEL


class Iris:
    """The iris model on one eye region, in MediaPipe's runtime."""

    def __init__(self):
        self.graph = mp.CalculatorGraph(graph_config=IRIS_GRAPH)
        self.result = []
        self.graph.observe_output_stream("iris", lambda _, p: self.result.append(
            [[l.x, l.y] for l in mp.packet_getter.get_proto(p).landmark]))
        self.graph.start_run()
        self.t = 0

    def run(self, rgb, a, b):
        """Iris landmarks (normalised) of the eye whose boundary runs from point a to point b (normalised)."""
        lm = landmark_pb2.NormalizedLandmarkList()
        for x, y in (a, b):
            lm.landmark.add(x=x, y=y)
        self.result.clear()
        self.t += 1
        ts = mp.Timestamp(self.t)
        self.graph.add_packet_to_input_stream("image", mp.packet_creator.create_image_frame(
            image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb)).at(ts))
        self.graph.add_packet_to_input_stream("boundary", mp.packet_creator.create_proto(lm).at(ts))
        self.graph.wait_until_idle()
        return self.result[0]

    def eyes(self, rgb, flipped, mesh):
        """Both eyes' 5 iris points: the image-left eye (33 → 133) as is; the image-right eye (362 → 263) mirrored,
        as iris_landmark_cpu.pbtxt flips it: read from the mirrored image (263' → 362') and mirrored back."""
        p = lambda i: (mesh[i][0], mesh[i][1])
        left = self.run(rgb, p(33), p(133))
        m = lambda i: (1 - mesh[i][0], mesh[i][1])
        right = [[1 - x, y] for x, y in self.run(flipped, m(263), m(362))]
        return left, right

    def close(self):
        self.graph.close()


def r6(v):
    return round(float(v), 6)


def faces(paths):
    out = {}
    iris = Iris()
    with mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=20, refine_landmarks=False) as fm:
        for path in paths:
            bgr = cv2.imread(path)
            h, w = bgr.shape[:2]
            rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
            r = fm.process(rgb)
            entries = []
            for face in r.multi_face_landmarks or []:
                mesh = [[l.x, l.y, l.z] for l in face.landmark]
                left, right = iris.eyes(rgb, cv2.flip(rgb, 1), mesh)
                entries.append({"mesh": [[r6(x), r6(y), r6(z)] for x, y, z in mesh],
                                "irisImageLeft": [[r6(x), r6(y)] for x, y in left],
                                "irisImageRight": [[r6(x), r6(y)] for x, y in right]})
            out[os.path.basename(path)] = {"width": w, "height": h, "faces": entries}
    iris.close()
    return out


def mirror(paths):
    import collections
    votes = collections.defaultdict(collections.Counter)
    with mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=1) as fm:
        for path in paths:
            rgb = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)
            a, b = fm.process(rgb), fm.process(cv2.flip(rgb, 1))
            if not a.multi_face_landmarks or not b.multi_face_landmarks:
                continue
            pa = np.array([[l.x, l.y] for l in a.multi_face_landmarks[0].landmark])
            pb = np.array([[1 - l.x, l.y] for l in b.multi_face_landmarks[0].landmark])
            if np.linalg.norm(pa.mean(0) - pb.mean(0)) > 0.05:
                continue
            d = ((pa[:, None, :] - pb[None, :, :]) ** 2).sum(-1)
            for i in range(len(pa)):
                votes[i][int(d[i].argmin())] += 1
    return [votes[i].most_common(1)[0][0] if votes[i] else i for i in range(468)]


def fixtures(astronaut, out):
    src = cv2.imread(astronaut)
    h, w = src.shape[:2]
    for angle in (45, -45):
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        m[:, 2] += (150 - w / 2, 150 - h / 2)
        cv2.imwrite(os.path.join(out, "face-rot%+d.jpg" % angle),
                    cv2.warpAffine(src, m, (300, 300), borderMode=cv2.BORDER_REPLICATE), [cv2.IMWRITE_JPEG_QUALITY, 92])
    cut = np.full((210, 210, 3), 128, np.uint8)
    cut[:, :150] = src[:, 60:]
    cv2.imwrite(os.path.join(out, "face-cut.jpg"), cut, [cv2.IMWRITE_JPEG_QUALITY, 92])
    tiny = np.full((240, 320, 3), 128, np.uint8)
    tiny[100:116, 150:166] = cv2.resize(src, (16, 16), interpolation=cv2.INTER_AREA)
    cv2.imwrite(os.path.join(out, "face-tiny.jpg"), tiny, [cv2.IMWRITE_JPEG_QUALITY, 92])
    face = src[40:170, 38:168]  # the face (dlib's box 57..146 x 57..146) with a margin
    cv2.imwrite(os.path.join(out, "faces-20.jpg"), np.tile(face, (4, 5, 1)), [cv2.IMWRITE_JPEG_QUALITY, 92])


def rle(mask):
    flat = mask.reshape(-1).astype(np.uint8)
    change = np.flatnonzero(np.diff(np.concatenate([[0], flat, [1 - flat[-1]]])))
    return np.diff(np.concatenate([[0], change])).tolist()


def pose3d(paths):
    out = {}
    with mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, enable_segmentation=True) as p:
        for path in paths:
            bgr = cv2.imread(path)
            h, w = bgr.shape[:2]
            r = p.process(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
            entry = {"width": w, "height": h, "landmarks": None, "world": None, "mask": None}
            if r.pose_landmarks:
                entry["landmarks"] = [[r6(l.x), r6(l.y), round(l.visibility, 4)] for l in r.pose_landmarks.landmark]
                entry["world"] = [[r6(l.x), r6(l.y), r6(l.z)] for l in r.pose_world_landmarks.landmark]
                m = r.segmentation_mask > 0.5
                entry["mask"] = {"rle": rle(m), "foreground": round(float(m.mean()), 6)}
            out[os.path.basename(path)] = entry
    return out


def bench(kind, runs, paths):
    if kind == "faces":
        solution = mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=20, refine_landmarks=False)
        iris = Iris()
    else:
        solution = mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, enable_segmentation=False)
    for path in paths:
        times, count = [], 0
        for i in range(runs + 1):
            t0 = time.perf_counter()
            rgb = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)
            r = solution.process(rgb)
            if kind == "faces":
                found = r.multi_face_landmarks or []
                if found:
                    flipped = cv2.flip(rgb, 1)
                    for face in found:
                        iris.eyes(rgb, flipped, [[l.x, l.y] for l in face.landmark])
                count = len(found)
            else:
                count = 1 if r.pose_world_landmarks else 0
            if i:
                times.append((time.perf_counter() - t0) * 1000)
        print(json.dumps({"file": path, "median_ms": round(statistics.median(times), 3), "count": count}), flush=True)
    solution.close()
    if kind == "faces":
        iris.close()


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind == "bench":
        bench(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
        sys.exit(0)
    if kind == "fixtures":
        fixtures(sys.argv[2], sys.argv[3])
        sys.exit(0)
    if kind == "mirror":
        print(json.dumps(mirror(sys.argv[2:])))
        sys.exit(0)
    result = faces(sys.argv[2:]) if kind == "faces" else pose3d(sys.argv[2:])
    json.dump({"generator": "mediapipe %s, Benchmarks/python/mediapipe_people_reference.py %s" % (mp.__version__, kind),
               "images": result}, sys.stdout, separators=(",", ":"))
    print()
