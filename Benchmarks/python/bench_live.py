"""Peer for the live benchmark: the usual Python loop, as Ultralytics' stream_buffer=False does it.

A reader thread plays the video at its frame rate with cv2.VideoCapture and keeps only the latest
frame; the main loop takes the latest frame, resizes it (Darknet models are stretched), runs
onnxruntime (2 intra-op threads), decodes and applies cv2.dnn.NMSBoxes per class.
Reports analysed fps, capture-to-result latency p50/p99, dropped frames and CPU use as JSON.
Usage: bench_live.py MODEL.onnx VIDEO [fastest|sequential]
  fastest:    the reader thread does not wait for the frame rate (and so drops what the loop can't take)
  sequential: no reader thread; read a frame, analyse it, read the next: every frame, as fast as possible
              (what Ultralytics does for video files)
"""
import json
import resource
import sys
import threading
import time

import cv2
import numpy as np

from bench_detect import decode, ort_session


def analyse(session, inp, size, frame) -> int:
    blob = cv2.resize(frame, size, interpolation=cv2.INTER_LINEAR)[:, :, ::-1].transpose(2, 0, 1)[None]
    blob = np.ascontiguousarray(blob, dtype=np.float32) / 255.0
    rows = np.concatenate(session.run(None, {inp.name: blob}))
    return len(decode(rows, frame.shape[1], frame.shape[0]))


def report(captured, dropped, latencies, first, last, cpu0, wall0, detections) -> None:
    wall = time.perf_counter() - wall0
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    lat = np.array(latencies)
    results = len(latencies)
    print(json.dumps({"captured": captured, "analysed": results, "dropped": dropped,
                      "analysed_fps": (results - 1) / (last - first) if results > 1 else 0,
                      "latency_p50_ms": float(np.percentile(lat, 50)), "latency_p99_ms": float(np.percentile(lat, 99)),
                      "cpu_percent": 100 * cpu / wall, "detections": detections}, sort_keys=True), flush=True)


def sequential(session, inp, size, video) -> None:
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    wall0 = time.perf_counter()
    cap = cv2.VideoCapture(video)
    latencies, first, last, detections = [], None, None, 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        t = time.perf_counter()
        detections += analyse(session, inp, size, frame)
        now = time.perf_counter()
        latencies.append((now - t) * 1000)
        first = first or now
        last = now
    report(len(latencies), 0, latencies, first, last, cpu0, wall0, detections)


def main() -> None:
    model, video = sys.argv[1], sys.argv[2]
    mode = sys.argv[3] if len(sys.argv) > 3 else "native"
    fastest = mode == "fastest"
    session = ort_session(model)
    inp = session.get_inputs()[0]
    size = (inp.shape[3], inp.shape[2])
    if mode == "sequential":
        sequential(session, inp, size, video)
        return
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
        detections += analyse(session, inp, size, frame)
        now = time.perf_counter()
        latencies.append((now - t) * 1000)
        results += 1
        first = first or now
        last = now
    thread.join()
    report(counts["captured"], counts["dropped"], latencies, first, last, cpu0, wall0, detections)


if __name__ == "__main__":
    main()
