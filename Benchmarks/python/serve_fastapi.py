"""The HTTP peer of `openvision serve` for scripts/bench serve: FastAPI + uvicorn running the bench's
Python peers behind the same two endpoints and query parameters.

  POST /v1/analyze?requests=barcodes  raw image body -> cv2.imdecode (gray) + zxingcpp.read_barcodes
                                      (zxing-cpp 3.1.1, its defaults, as bench_zxing.py)
  POST /v1/detect?model=FILE.onnx     raw image body -> cv2.imdecode + the ONNX Runtime pipeline of
                                      bench_detect.py (resize, CHW/255, 2 intra-op threads, decode, NMS)
  GET  /healthz

Run: uvicorn serve_fastapi:app --workers N (cwd Benchmarks/python; MODELS_DIR = folder of the .onnx).
CPU work runs in Starlette's thread pool (run_in_threadpool), FastAPI's advice for blocking calls.
"""
import os

import cv2
import numpy as np
import zxingcpp
from fastapi import FastAPI, HTTPException, Request
from fastapi.concurrency import run_in_threadpool

from bench_detect import decode, ort_session

app = FastAPI()
_sessions = {}


def _session(name):
    if "/" in name:
        raise HTTPException(404, "model not found")
    if name not in _sessions:
        path = os.path.join(os.environ.get("MODELS_DIR", "."), name)
        if not os.path.exists(path):
            raise HTTPException(404, "model not found")
        _sessions[name] = ort_session(path)
    return _sessions[name]


def _barcodes(body):
    gray = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_GRAYSCALE)
    if gray is None:
        raise HTTPException(422, "invalid image")
    results = zxingcpp.read_barcodes(gray)
    return {"width": gray.shape[1], "height": gray.shape[0],
            "barcodes": [{"symbology": str(r.format), "payload": r.text} for r in results]}


def _detect(body, session):
    im = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
    if im is None:
        raise HTTPException(422, "invalid image")
    inp = session.get_inputs()[0]
    size = (inp.shape[3], inp.shape[2])
    blob = cv2.resize(im, size, interpolation=cv2.INTER_LINEAR)[:, :, ::-1].transpose(2, 0, 1)[None]
    blob = np.ascontiguousarray(blob, dtype=np.float32) / 255.0
    rows = np.concatenate(session.run(None, {inp.name: blob}))
    objects = decode(rows, im.shape[1], im.shape[0])
    return {"width": im.shape[1], "height": im.shape[0],
            "objects": [{"class": c, "confidence": s, "box": b} for c, s, b in objects]}


@app.get("/healthz")
def healthz():
    return {"status": "ok"}


@app.post("/v1/analyze")
async def analyze(request: Request, requests: str = "barcodes"):
    if requests != "barcodes":
        raise HTTPException(400, "this peer runs barcodes only")
    body = await request.body()
    return await run_in_threadpool(_barcodes, body)


@app.post("/v1/detect")
async def detect(request: Request, model: str):
    session = _session(model)
    body = await request.body()
    return await run_in_threadpool(_detect, body, session)
