"""Peer for the live benchmark: the usual Python loop, as Ultralytics' stream_buffer=False does it.

A reader thread plays the video at its frame rate with cv2.VideoCapture and keeps only the latest
frame; the main loop takes the latest frame, resizes it (Darknet models are stretched), runs
onnxruntime (2 intra-op threads), decodes and applies cv2.dnn.NMSBoxes per class.
Reports analysed fps, capture-to-result latency p50/p99, dropped frames and CPU use as JSON.
Usage: bench_live.py MODEL.onnx VIDEO [fastest]   (fastest: the reader does not wait for the frame rate)
"""
import json
import resource
import sys
import threading
import time

import cv2
import numpy as np

from bench_detect import decode, ort_session


def main() -> None:
    model, video = sys.argv[1], sys.argv[2]
    fastest = len(sys.argv) > 3 and sys.argv[3] == "fastest"
    session = ort_session(model)
    inp = session.get_inputs()[0]
    size = (inp.shape[3], inp.shape[2])
    latest = {"frame": None, "time": 0.0, "index": -1}
    lock = threading.Lock()
    done = threading.Event()
    counts = {"captured": 0, "dropped": 0}

    def reader():
        cap = cv2.VideoCapture(video)
        fps = cap.get(cv2.CAP_PROP_FPS) or 30
        start = time.perf_counter()
        i = 0
        while True:
            ok, frame = cap.read()
            if not ok:
                break
            with lock:
                if latest["frame"] is not None:
                    counts["dropped"] += 1
                latest.update(frame=frame, time=time.perf_counter(), index=i)
            counts["captured"] += 1
            i += 1
            wait = start + i / fps - time.perf_counter()
            if wait > 0 and not fastest:
                time.sleep(wait)
        done.set()

    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    wall0 = time.perf_counter()
    thread = threading.Thread(target=reader)
    thread.start()
    latencies, results, first, last, detections = [], 0, None, None, 0
    while True:
        with lock:
            frame, t, index = latest["frame"], latest["time"], latest["index"]
            latest["frame"] = None
        if frame is None:
            if done.is_set():
                break
            time.sleep(0.001)
            continue
        blob = cv2.resize(frame, size, interpolation=cv2.INTER_LINEAR)[:, :, ::-1].transpose(2, 0, 1)[None]
        blob = np.ascontiguousarray(blob, dtype=np.float32) / 255.0
        rows = np.concatenate(session.run(None, {inp.name: blob}))
        detections += len(decode(rows, frame.shape[1], frame.shape[0]))
        now = time.perf_counter()
        latencies.append((now - t) * 1000)
        results += 1
        first = first or now
        last = now
    thread.join()
    wall = time.perf_counter() - wall0
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    lat = np.array(latencies)
    print(json.dumps({"captured": counts["captured"], "analysed": results, "dropped": counts["dropped"],
                      "analysed_fps": (results - 1) / (last - first) if results > 1 else 0,
                      "latency_p50_ms": float(np.percentile(lat, 50)), "latency_p99_ms": float(np.percentile(lat, 99)),
                      "cpu_percent": 100 * cpu / wall, "detections": detections}, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
