#!/usr/bin/env python3
"""Summary of scripts/bench's coreml-classic section: a table per file of who converts it, whether each ONNX gives the
library's answers, conversion time in process, and one onnxruntime run of each.

usage: compare_coreml_classic.py OURS.jsonl PEER.jsonl
OURS: openvision-bench coreml-convert; PEER: bench_coreml_classic_peer.py (onnxmltools, and both ONNX files' runs).
"""
import json, os, sys

def rows(path):
    return [json.loads(l) for l in open(path) if l.strip()]

ours = {os.path.splitext(r["model"])[0]: r for r in rows(sys.argv[1])}
peer = {r["model"]: r for r in rows(sys.argv[2])}
def answer(r, who):
    if f"{who}_run_error" in r:
        return "n/a: " + r[f"{who}_run_error"][:40]
    if f"{who}_max_error" not in r:
        return "-"
    e, m = r[f"{who}_max_error"], r[f"{who}_label_mismatches"]
    return f"{e:.1e}" + (f", {m} labels differ" if m else "")
print("| file | ours converts (ms) | onnxmltools converts (ms) | ratio | ours: max error | onnxmltools: max error | run µs ours / onnxmltools | ratio |")
print("|---|---|---|---|---|---|---|---|")
conv, run = [], []
for name in sorted(set(ours) | set(peer)):
    o, p = ours.get(name, {}), peer.get(name, {})
    oc = f"yes ({o['convert_ms']:.2f})" if o.get("converts") else "no: " + o.get("error", "?")[:50]
    pc = f"yes ({p['peer_convert_ms']:.2f})" if p.get("peer_converts") else "no: " + p.get("peer_error", "?")[:50]
    cr = o["convert_ms"] / p["peer_convert_ms"] if o.get("converts") and p.get("peer_converts") else None
    if cr:
        conv.append(cr)
    rr = p.get("run_ratio")
    if rr:
        run.append(rr)
    runs = f"{p['ours_run_us']:.1f} / {p['peer_run_us']:.1f}" if rr else "-"
    print(f"| {name} | {oc} | {pc} | {'%.3f' % cr if cr else '-'} | {answer(p, 'ours')} | {answer(p, 'peer')} | {runs} | "
          f"{'%.2f' % rr if rr else '-'} |")
med = lambda v: sorted(v)[len(v) // 2] if v else float("nan")
print(f"\nconversion time ours / onnxmltools: median {med(conv):.3f}, worst {max(conv) if conv else float('nan'):.3f} "
      f"over {len(conv)} files both convert; onnxruntime run ours / onnxmltools: median {med(run):.2f}, worst "
      f"{max(run) if run else float('nan'):.2f} over {len(run)} files")
