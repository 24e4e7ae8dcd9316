#!/usr/bin/env python3
"""Summary of scripts/bench's coreml section.

usage: compare_coreml.py SPEED.jsonl OURS.jsonl PEER.jsonl
SPEED: openvision-bench coreml (the converted classifier vs the source network's ONNX file);
OURS: openvision-bench coreml-convert (conversion time per file); PEER: bench_coreml_peer.py (onnxmltools).
The per-layer fixtures' agreement on our side is what the tests check (CoreMLImportTests): every one of them.
"""
import json, sys

def rows(path):
    return [json.loads(l) for l in open(path) if l.strip()]

speed, ours, peer = rows(sys.argv[1]), {r["model"]: r for r in rows(sys.argv[2])}, {r["model"]: r for r in rows(sys.argv[3])}
for s in speed:
    print(f"{s['model']}: {s['coreml_ms']:.2f} ms vs {s['reference']} {s['onnx_ms']:.2f} ms (ratio {s['ratio']:.3f}); "
          f"first load (conversion) {s['first_load_ms']:.0f} ms, cached load {s['cached_load_ms']:.0f} ms, "
          f"ONNX file load {s['onnx_load_ms']:.0f} ms, conversion alone {s['convert_ms']:.0f} ms")
names = sorted(set(ours) | set(peer))
shared = [n for n in names if not n[0].islower()]
fixtures = [n for n in names if n[0].islower()]
def line(group, label):
    o = [n for n in group if ours.get(n, {}).get("converts")]
    p = [n for n in group if peer.get(n, {}).get("converts")]
    pr = [n for n in p if peer[n].get("runs")]
    pa = [n for n in pr if peer[n].get("agrees")]
    both = [n for n in o if n in p and "convert_ms" in ours[n] and "convert_ms" in peer[n]]
    ratio = sorted(ours[n]["convert_ms"] / peer[n]["convert_ms"] for n in both)
    med = ratio[len(ratio) // 2] if ratio else float("nan")
    print(f"{label}: ours converts {len(o)}/{len(group)}; onnxmltools converts {len(p)}, its ONNX runs {len(pr)}, agrees {len(pa)}; "
          f"conversion time ours/theirs (median over {len(both)} files both convert) {med:.2f}")
    only = [n for n in p if n not in o]
    if only:
        print(f"  converted by onnxmltools only: {', '.join(only)}")
line(shared, "shared Core ML files")
line(fixtures, "per-layer fixtures")
for n in shared:
    o, p = ours.get(n, {}), peer.get(n, {})
    print(f"  {n}: ours {'%.0f ms' % o['convert_ms'] if o.get('converts') else 'fails: ' + o.get('error', '?')[:80]}; "
          f"onnxmltools {'%.0f ms' % p['convert_ms'] if p.get('converts') else 'fails: ' + p.get('error', '?')[:80]}")
