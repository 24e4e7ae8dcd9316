"""scripts/bench serve: HTTP requests/s and p50/p99 latency with wrk on loopback, `openvision serve`
vs the FastAPI + uvicorn peer (serve_fastapi.py), same endpoints, images, model and CPUs.

Each side runs pinned with taskset to the same CPUs (CPUS, default all) with WORKERS analysis workers
(ours: --workers N; theirs: uvicorn --workers N processes); wrk runs on the same machine (unpinned).
For each workload the sides alternate for ROUNDS rounds of DURATION seconds (after a warm-up); each
side's figure is the median over its rounds. Prints a table and JSON lines.

Usage: bench_serve.py OPENVISION_BINARY MODELS_DIR ONNX_NAME OUT_DIR ROUNDS IMAGE...
Env: WRK_DURATION (s, default 10), WRK_CONNECTIONS (default 8), WORKERS (default nproc), CPUS (default 0-(nproc-1)).
"""
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(port, proc, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("server did not become healthy")


def start(side, port, binary, models, cpus, workers, log):
    if side == "openvision":
        cmd = ["taskset", "-c", cpus, binary, "serve", "--port", str(port), "--workers", str(workers), "--queue", "256"]
        env = dict(os.environ, OPENVISION_MODELS=models)
        cwd = None
    else:
        cmd = ["taskset", "-c", cpus, sys.executable, "-m", "uvicorn", "serve_fastapi:app", "--host", "127.0.0.1",
               "--port", str(port), "--workers", str(workers), "--log-level", "warning", "--no-access-log"]
        env = dict(os.environ, MODELS_DIR=models)
        cwd = HERE
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=log, stderr=log, start_new_session=True)
    wait_healthy(port, proc)
    return proc


def stop(proc):
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def lua_script(path, images):
    bodies = ", ".join(f'"{p}"' for p in images)
    with open(path, "w") as f:
        f.write(f"""
local files = {{{bodies}}}
local bodies = {{}}
for i, p in ipairs(files) do
  local fh = assert(io.open(p, "rb")); bodies[i] = fh:read("*all"); fh:close()
end
local n = 0
request = function()
  n = n + 1
  local body = bodies[(n % #bodies) + 1]
  return wrk.format("POST", nil, {{["Content-Type"] = "application/octet-stream"}}, body)
end
local errors = 0
response = function(status, headers, body)
  if status ~= 200 then errors = errors + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("non200 %d\\n", errors))
end
""")


UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def wrk(port, path, script, duration, connections):
    out = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{duration}s", "--latency", "--timeout", "30s",
                          "-s", script, f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    lat = {}
    for pct in ("50", "99"):
        m = re.search(rf"^\s+{pct}(?:\.000)?%\s+([\d.]+)(us|ms|s|m)\s*$", out, re.M)
        lat[pct] = float(m.group(1)) * UNITS[m.group(2)]
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors: .*", out)
    return {"rps": rps, "p50_ms": lat["50"], "p99_ms": lat["99"], "non2xx": int(bad.group(1)) if bad else 0,
            "socket_errors": errors.group(0) if errors else ""}


def main():
    binary, models, onnx, out, rounds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    images = sys.argv[6:]
    ncpu = os.cpu_count() or 1
    duration = int(os.environ.get("WRK_DURATION", "10"))
    connections = int(os.environ.get("WRK_CONNECTIONS", "8"))
    workers = int(os.environ.get("WORKERS", str(ncpu)))
    cpus = os.environ.get("CPUS", f"0-{ncpu - 1}")
    script = os.path.join(out, "serve-post.lua")
    lua_script(script, images)
    workloads = [("barcodes", "/v1/analyze?requests=barcodes"), ("detect", f"/v1/detect?model={onnx}")]
    results = {}
    with open(os.path.join(out, "serve-servers.log"), "w") as log:
        for name, path in workloads:
            for r in range(rounds):
                for side in (("openvision", "fastapi") if r % 2 == 0 else ("fastapi", "openvision")):
                    port = free_port()
                    proc = start(side, port, binary, models, cpus, workers, log)
                    try:
                        wrk(port, path, script, 3, connections)  # warm-up: model loads, caches
                        res = wrk(port, path, script, duration, connections)
                    finally:
                        stop(proc)
                    res.update(workload=name, side=side, round=r + 1)
                    print(json.dumps(res), flush=True)
                    results.setdefault((name, side), []).append(res)
    print()
    print(f"## HTTP on loopback: wrk -c {connections} for {duration} s x {rounds} rounds (medians); "
          f"both pinned to CPUs {cpus}, {workers} workers each")
    print(f"{'workload':10} {'side':11} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8}")
    for name, _ in workloads:
        med = {}
        for side in ("openvision", "fastapi"):
            rs = results[(name, side)]
            med[side] = {k: statistics.median(x[k] for x in rs) for k in ("rps", "p50_ms", "p99_ms")}
            print(f"{name:10} {side:11} {med[side]['rps']:8.1f} {med[side]['p50_ms']:8.1f} {med[side]['p99_ms']:8.1f} "
                  f"{sum(x['non2xx'] for x in rs):8d}")
        print(f"{name:10} {'ratio':11} {med['openvision']['rps'] / med['fastapi']['rps']:7.2f}x "
              f"{med['fastapi']['p50_ms'] / med['openvision']['p50_ms']:7.2f}x {med['fastapi']['p99_ms'] / med['openvision']['p99_ms']:7.2f}x"
              "   (ours/theirs req/s; theirs/ours latency)")


if __name__ == "__main__":
    main()
