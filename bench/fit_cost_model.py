"""Fits the matmul plans' cost model (planner.CostModel) to the tiling sweeps of the wgmma
kernels committed under bench/results/cuda-matmul/, and says what the fit would change
against the constants the wgmma plans take (planner.WGMMA_COSTS, its fit over the sweeps up
to cost-model-fit/call1-h100; planner.COSTS, fitted to the mma.sync kernels, beside them).

Each measured row is (call, case, tiling BM x BN, us): the default plan and forced tilings of
the same products in one device call (each round of a side-by-side summary a row). The
model's time of a row (CostModel.time: the grid's tiles over cuda-sm90a's SMs, wgmma's K
steps, the epilogue's ops) maps to microseconds by a floor and a scale of each call (least
squares on relative errors; a call's kernels and machine are its own), so the constants are
fitted on how times vary within a call. A grid over (load, step, epilogue_op, share) takes
the least error. Reported for COSTS, WGMMA_COSTS and the fitted constants: the error, and per
(call, case) the tiling each picks among the measured ones against the measured best. Then,
over a grid of product shapes, the wgmma plans (planner.wgmma_plan, cuda-sm90a) that the
fitted constants choose otherwise than WGMMA_COSTS.

    python bench/fit_cost_model.py [--out FILE]
"""

from __future__ import annotations

import argparse
import itertools
import math
import pathlib
import re
import statistics

import numpy as np
from iree.compiler import ir

from ldsopt import target as target_model
from ldsopt.cli import output_file
from ldsopt.matmul import planner, schemes

RESULTS = pathlib.Path(__file__).parent / "results" / "cuda-matmul"
TARGET = target_model.by_name("cuda-sm90a")  # the H200's SMs
# The fused consumer's ops (match.MatmulProblem's body, the cast to f16 included) of each
# epilogue of ldsopt/measure/cases.py; plain products (f32 out) have none.
EPILOGUE_OPS = {"cast": 1, "bias": 3, "bias_gelu": 8, "bias_residual": 5, None: 0}
# The default tilings of the BERT-base products at the commits swept (their READMEs); the
# large products 128x256.
BERT_DEFAULTS = {"512x2304x768": (128, 128), "512x3072x768": (64, 64), "512x768x3072": (64, 64), "512x768x768": (64, 64)}
# (call, summary file, variant -> tiling; "default" the commit's default), stage and split
# variants left out (the model has no stages, and its split terms are not what ranks splits).
SWEEPS = (
    ("a9506f5", "wgmma-sweep-a9506f5/sweep_summary.txt",
     {"default": None, "t64x192": (64, 192), "t128x192": (128, 192), "t64x128": (64, 128)}),
    ("2b34081-nt", "wave-tiles-2b34081/sweep_summary.txt",
     {"default": None, "t64x48": (64, 48), "t64x32": (64, 32), "t64x144": (64, 144), "t64x192": (64, 192)}),
    ("2b34081-nn", "wave-tiles-2b34081/nn_summary.txt", {"default": None, "t64x192": (64, 192)}),
    ("cf9e131", "gpt2-products-sweep/sweep.txt", {"def": None, "t64": (64, 64), "t128": (64, 128)}),
    # multi-wave products, two rounds each, on H100s (the default plans left out: each is one
    # of the forced tilings)
    ("cost-model-fit-h100", "cost-model-fit/call1-h100/summary.txt",
     {"t64x128x8x8": (64, 128), "t128x128x8x8": (128, 128), "t128x256x8x16": (128, 256), "t64x256x8x16": (64, 256)}),
    ("wave-tiles-h100", "wave-tiles-128x192/call1-h100/summary.txt",
     {"t192x192x8x12": (192, 192), "t128x192x8x12": (128, 192), "t256x128x8x8": (256, 128)}),
)
GRID = {"load": (0, 4, 9, 16, 24, 32, 48, 64, 96, 128), "step": (0, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768),
        "epilogue_op": (0, 16, 32, 64, 128, 256), "share": (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)}


def shape(case: str) -> tuple[int, int, int, int]:
    """(M, N, K, epilogue ops) of a matmul case's name."""
    m = re.fullmatch(r"matmul_(?:NN|NT|TN)_(\d+)x(\d+)x(\d+)_b?f16(?:_(\w+))?", case)
    return int(m[1]), int(m[2]), int(m[3]), EPILOGUE_OPS[m[4]]


def rows() -> list[tuple[str, str, tuple[int, int], float]]:
    """(call, case, tiling, us) of every swept row."""
    out = []
    for call, path, variants in SWEEPS:
        variant, columns = None, None
        for line in open(RESULTS / path):
            if line.startswith("=="):  # gpt2-products-sweep: "== variant", then "case  us (TFLOP/s)"
                variant = line.split()[1]
                continue
            if line.startswith("case "):  # bench/side_by_side.py: a column a run, VARIANT + round digit
                columns = [run[:-1] for run in line.split()[1:]]
                continue
            if columns:
                case, *times = line.split()
                out += [(call, case, variants[run], float(us)) for run, us in zip(columns, times)
                        if run in variants and us != "nan"]
                continue
            cells = [c.strip() for c in line.split("|")]
            if len(cells) > 3:  # lds-bench tables: "variant | case | bytes | us (TFLOP/s) | ..."
                variant, case, us = cells[0], cells[1], cells[3].split()[0] if cells[3] else ""
            elif line.split():
                case, us = line.split()[:2]
            else:
                continue
            if variant not in variants or not case.startswith("matmul_"):
                continue
            default = next((t for k, t in BERT_DEFAULTS.items() if f"_{k}_" in case + "_"), (128, 256))
            out.append((call, case, variants[variant] or default, float(us)))
    return out


def model_time(costs: planner.CostModel, case: str, tiling: tuple[int, int]) -> float:
    m, n, k, ops = shape(case)
    bm, bn = tiling
    step = schemes.WgmmaScheme.K_ROW
    return costs.time(math.ceil(m / bm) * math.ceil(n / bn), TARGET.compute_units, math.ceil(k / step) * step,
                      bm, bn, ops)[0]


def error(costs: planner.CostModel, data) -> float:
    """Root mean square relative error, each call's floor and scale fitted."""
    total = 0.0
    for call in sorted({r[0] for r in data}):
        rs = [r for r in data if r[0] == call]
        x = np.array([model_time(costs, r[1], r[2]) for r in rs])
        y = np.array([r[3] for r in rs])
        floor_scale, *_ = np.linalg.lstsq(np.stack([np.ones_like(x), x], 1) / y[:, None], np.ones_like(y), rcond=None)
        total += float(np.sum((floor_scale[0] + floor_scale[1] * x - y) ** 2 / y ** 2))
    return math.sqrt(total / len(data))


def picks(costs: planner.CostModel, data) -> list[tuple[str, str, tuple[int, int], float, float]]:
    """(call, case, the tiling the model picks among the measured, its us, the best us)."""
    out = []
    for call, case in sorted({(r[0], r[1]) for r in data}):
        measured = {r[2]: r[3] for r in data if r[0] == call and r[1] == case}
        if len(measured) > 1:
            pick = min(measured, key=lambda t: model_time(costs, case, t))
            out.append((call, case, pick, measured[pick], min(measured.values())))
    return out


def changed_plans(old: planner.CostModel, new: planner.CostModel) -> tuple[int, list[tuple[str, str, str]]]:
    """(products planned, those whose wgmma plan differs) over a grid of shapes, f16, A row-major,
    B K x N and N x K, on cuda-sm90a (the pass's default budget and stages)."""
    tgt, budget = TARGET, TARGET.lds_budget(1)
    planned, differ = 0, []
    with ir.Context(), ir.Location.unknown():
        elem = ir.F16Type.get()
        for m, n, k, b in itertools.product((64, 128, 256, 512, 1024, 2048, 3000, 4096, 8192),
                                            (64, 256, 768, 1024, 2304, 3072, 4096, 6144, 8192),
                                            (256, 768, 1024, 3072, 4096, 8192), (("k", "n"), ("n", "k"))):
            p = planner.shaped_problem(("m", "k"), b, elem, m, n, k)
            plans = [planner.wgmma_plan(p, tgt, budget, costs=costs) for costs in (old, new)]
            tiles = [pl and f"{pl.tiling.bm}x{pl.tiling.bn}" for pl in plans]
            planned += 1
            if tiles[0] != tiles[1]:
                differ.append((f"{m}x{n}x{k}", "".join(b), f"{tiles[0]} -> {tiles[1]}"))
    return planned, differ


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="write the report here")
    args = ap.parse_args()
    data = rows()
    fitted = min((planner.CostModel(*c) for c in itertools.product(*GRID.values())), key=lambda c: error(c, data))
    lines = [f"{len(data)} measured rows, {len({(r[0], r[1]) for r in data})} products in "
             f"{len({r[0] for r in data})} calls", ""]
    for label, costs in (("COSTS", planner.COSTS), ("WGMMA_COSTS", planner.WGMMA_COSTS), ("fitted", fitted)):
        ps = picks(costs, data)
        lines += [f"{label}: {costs}", f"  relative RMS error {error(costs, data):.3f}; the measured best picked in "
                  f"{sum(p[3] <= p[4] for p in ps)} of {len(ps)}, mean time over the best "
                  f"{statistics.mean(p[3] / p[4] for p in ps):.4f}, worst {max(p[3] / p[4] for p in ps):.3f}"]
        lines += [f"    {call} {case}: {pick[0]}x{pick[1]} {us} us (best {best})" for call, case, pick, us, best in ps
                  if us > best]
    planned, differ = changed_plans(planner.WGMMA_COSTS, fitted)
    lines += ["", f"wgmma plans of {planned} products (f16, cuda-sm90a) that the fit changes: {len(differ)}"]
    by_change: dict[str, list[str]] = {}
    for mnk, b, change in differ:
        by_change.setdefault(change, []).append(f"{mnk} ({b})")
    lines += [f"  {change}: {', '.join(shapes)}" for change, shapes in sorted(by_change.items())]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        output_file.write(args.out, text)


if __name__ == "__main__":
    main()
