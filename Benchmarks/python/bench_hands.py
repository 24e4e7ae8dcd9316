"""The peer of `openvision-bench hands|faces RUNS VARIANT FILE...`: MediaPipe Python 0.10.14 on the same model files
(its wheel carries them; scripts/setup extracts the same files for OpenVision): mp.solutions.hands
(static_image_mode=True, max_num_hands=2, model_complexity 0 = lite, 1 = full) or mp.solutions.face_detection
(model_selection 0 = short, 1 = full range). File → observations: cv2.imread, BGR → RGB, process; one solution
object reused across files, as an application would; MediaPipe's own CPU inference (TFLite + XNNPACK).
Per file: the median of RUNS timed calls after a warm-up, as JSONL.
Usage: bench_hands.py hands|faces RUNS lite|full|short|full FILE...
"""
import json
import statistics
import sys
import time

import cv2
import mediapipe as mp


def main() -> None:
    kind, runs, variant = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if kind == "hands":
        solution = mp.solutions.hands.Hands(static_image_mode=True, max_num_hands=2, model_complexity=0 if variant == "lite" else 1)
    else:
        solution = mp.solutions.face_detection.FaceDetection(model_selection=0 if variant == "short" else 1)
    for path in sys.argv[4:]:
        times = []
        summary = ""
        for run in range(runs + 1):
            start = time.perf_counter()
            image = cv2.imread(path)
            result = solution.process(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
            elapsed = (time.perf_counter() - start) * 1000
            if run > 0:
                times.append(elapsed)
            if kind == "hands":
                summary = f"{len(result.multi_hand_landmarks or [])} hands"
            else:
                summary = f"{len(result.detections or [])} faces"
        print(json.dumps({"file": path, "median_ms": statistics.median(times), "text": summary}), flush=True)
    solution.close()


if __name__ == "__main__":
    main()
