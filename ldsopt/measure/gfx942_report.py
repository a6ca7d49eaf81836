"""The static gfx942 report: ldsopt's kernel and IREE's default kernel for the same dispatch,
side by side, as their ISA states them; what `lds-bench --target gfx942` writes where no HIP
device is, for the cases of ldsopt/measure/cases.py or, dispatch by dispatch, for a program.

Read from a folder `lds-bench --target gfx942 --prepare` made (each benchmark module's
`.rocmasm` beside its .vmfb, `bench.dispatch_benchmarks`), per kernel:
- VGPRs (AGPRs included), AGPRs, SGPRs, LDS bytes, scratch and spills (`isa`);
- waves per SIMD and the resource that limits them (`occupancy`);
- counts over the whole kernel and over one trip of its main loop (`isa_counts`): MFMA by
  shape, LDS reads and writes by width, global loads and stores by width, LDS-direct loads,
  s_waitcnt, s_barrier, v_perm_b32;
- the bank model's conflicts for the operands an ldsopt pass staged through LDS, as its
  planner priced them (`ldsopt.staging_conflicts`, through the manifest's dispatch records);
and per case (or dispatch) a bound from its bytes and FLOPs at the MI300X's peaks, with the
one the main loop's MFMA FLOPs per global byte point to (`mi300x`). All of it is an estimate
from static facts: nothing here was run.

    python -m ldsopt.measure.gfx942_report DIR [--out OUT]     # = lds-bench --target gfx942 with no HIP device

writes OUT/gfx942_report.{json,md,png}.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys

from ldsopt.measure import bench_replay, isa, isa_counts, mi300x, occupancy, program_bench, timing

STEM = "gfx942_report"
VARIANTS = timing.VARIANTS
COUNTED = ("mfma", "ds_read", "ds_write", "load", "store", "lds_direct", "s_waitcnt", "s_barrier", "v_perm_b32")


def kernel_facts(text: str) -> dict[str, dict]:
    """Per kernel of a `.rocmasm`: registers, LDS, scratch, occupancy and counts."""
    out = {}
    code = isa.kernel_code(text)
    for k in isa.parse_rocmasm(text):
        counts = isa_counts.analyze(code[k.name])
        occ = occupancy.occupancy(k.vgprs, k.sgprs, k.lds_bytes, k.workgroup_size)
        trip = counts.loop or counts.whole
        mfma = trip.ops.get("mfma", {})
        mtype = isa_counts.mfma_type(max(mfma, key=lambda op: mfma[op] * isa_counts.mfma_flops(op))) if mfma else None
        points, why = mi300x.loop_points_to(trip.mfma_flops, trip.global_wave_bytes, mtype)
        out[k.name] = {
            "vgprs": k.vgprs, "agprs": k.agprs, "sgprs": k.sgprs, "lds_bytes": k.lds_bytes,
            "scratch_bytes": k.scratch_bytes, "vgpr_spills": k.vgpr_spills, "sgpr_spills": k.sgpr_spills,
            "workgroup_size": k.workgroup_size,
            "occupancy": {"waves": occ.waves, "limits": occ.limits, "limited_by": occ.limited_by},
            "loops": counts.loops, "kernel": counts.whole.as_dict(),
            "loop": counts.loop.as_dict() if counts.loop else None,
            "points_to": {"bound": points, "why": why, "of": "main loop" if counts.loop else "kernel (no loop)",
                          "mfma_flops": trip.mfma_flops, "global_bytes": trip.global_wave_bytes,
                          "intensity": trip.mfma_flops / trip.global_wave_bytes
                          if trip.mfma_flops and trip.global_wave_bytes else None}}
    return out


def _kernels(folder: str, dispatches: list[dict]) -> list[dict]:
    """The kernel of each dispatch record (its `isa` file), with who lowered it and the bank
    conflicts recorded for it."""
    out = []
    for d in dispatches:
        with open(os.path.join(folder, d["isa"])) as f:
            facts = kernel_facts(f.read())
        if d["name"] not in facts:
            raise ValueError(f"{d['isa']} holds no kernel {d['name']} (it has {sorted(facts)})")
        out.append({"name": d["name"], "passes": d["passes"], "bank_conflicts": d.get("bank_conflicts") or None,
                    **facts[d["name"]]})
    return out


def _bound(work: dict | None) -> dict | None:
    if not work or "error" in work:
        return None
    return {**mi300x.bound(work["bytes"], work["flops"], work["type"]), "type": work["type"]}


def report(folder: str) -> dict:
    """The static report of a folder `lds-bench --target gfx942 --prepare` made (the cases, or
    a program's dispatches)."""
    with open(os.path.join(folder, "manifest.json")) as f:
        man = json.load(f)
    if man["target"] != "gfx942":
        raise ValueError(f"{folder} was prepared for {man['target']}, not gfx942")
    rows = []
    if "program" in man:
        for d in man["dispatches"]:
            # A variant that could not compile the dispatch has no ISA: its cell is the error.
            records = {v: [{"name": d["name"], "isa": d["isa"][v], "passes": d["passes"] if v == "ldsopt" else [],
                            "bank_conflicts": d["bank_conflicts"] if v == "ldsopt" else None}]
                       if d["isa"][v] else [] for v in VARIANTS}
            errors = d.get("errors", {})
            rows.append({"name": d["name"], "calls": d["calls"], "why": program_bench.why(d), "bound": _bound(d["work"]),
                         "variants": {v: {"kernels": _kernels(folder, records[v]),
                                          **({"error": errors[v]} if v in errors else {})} for v in VARIANTS}})
    else:
        cases = {c.name: c for c in bench_replay.load_cases(os.path.join(folder, "cases.py")).CASES}
        for c in man["cases"]:
            # FLOPs at the MFMA peak of the case's operand type (its first input's)
            elem = cases[c["name"]].inputs[0].dtype if c["name"] in cases else None
            rows.append({"name": c["name"], "what": c["what"],
                         "bound": _bound({"bytes": c["bytes"], "flops": c.get("flops", 0), "type": elem}),
                         "variants": {v: {"kernels": _kernels(folder, c["variants"][v]["dispatches"]),
                                          **{k: c["variants"][v][k] for k in ("ldsopt_dispatches", "total_dispatches",
                                                                              "error") if k in c["variants"][v]}}
                                      for v in VARIANTS}})
    keys = ("commit", "dirty", "pipeline", "program_pipeline") + (("program", "source") if "program" in man else ())
    return {"kind": "gfx942 static report", **{k: man.get(k) for k in keys},
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "figures": {"hbm_bytes_per_s": mi300x.HBM_BYTES_PER_S, "mfma_peak": mi300x.MFMA_PEAK, "source": mi300x.SOURCE,
                        "occupancy": occupancy.__doc__.split("\n\n")[1]},
            "rows": rows}


# --- markdown ---

_GLOBAL_NAMES = {"dwordx4": "b128", "dwordx3": "b96", "dwordx2": "b64", "dword": "b32", "ushort": "u16",
                 "short": "b16", "sshort": "i16", "ubyte": "u8", "byte": "b8", "sbyte": "i8"}


def _short(kind: str, op: str) -> str:
    """A mnemonic in a table cell: the MFMA's shape and type, an access's width."""
    if kind == "mfma":
        return op.removeprefix("v_mfma_").split("_", 1)[1].replace("_", "")
    if kind in ("ds_read", "ds_write"):  # ds_read_b128 -> b128, ds_read2_b64 -> read2_b64
        tail = op.removeprefix(kind)
        return tail[1:] if tail.startswith("_") else op.removeprefix("ds_")
    if kind in ("s_waitcnt", "s_barrier", "v_perm_b32"):
        return ""
    tail = op.split("load_", 1)[-1] if "load_" in op else op.split("store_", 1)[-1]
    tail = tail.removeprefix("lds_")
    return _GLOBAL_NAMES.get(tail, tail)


def _cell(counts: dict | None, kind: str) -> str:
    if counts is None:
        return "-"
    ops = counts["ops"].get(kind, {})
    if not ops:
        return "0"
    parts = sorted(((_short(kind, op), n) for op, n in ops.items()), key=lambda x: -x[1])
    return " ".join(f"{s}×{n}" if s else str(n) for s, n in parts)


def _us(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}" if x < 10 else f"{x:.1f}"


def _occ(k: dict) -> str:
    o = k["occupancy"]
    return f"{o['waves']}" + (f" ({', '.join(o['limited_by'])})" if o["limited_by"] else "")


def _points(k: dict) -> str:
    p = k["points_to"]
    return f"{p['intensity']:.0f} → {p['bound']}" if p["intensity"] else p["bound"]


def _conflicts(k: dict, variant: str) -> str:
    if variant != "ldsopt" or not k["passes"]:
        return "-"
    if not k["bank_conflicts"]:
        return "no LDS" if not k["lds_bytes"] else "not recorded"
    return ", ".join(f"{r} {c['stores']}/{c['reads']}" for r, c in k["bank_conflicts"].items())


def _label(row: dict) -> str:
    return f"`{program_bench.short(row['name'])}`" if "calls" in row else row["name"]


def _subject(report: dict) -> str:
    """The first column's title: the cases', or a program's dispatches'."""
    return "dispatch" if "program" in report else "case"


def _kernel_rows(report: dict):
    """(row, variant, kernel, tag) of each kernel; kernel None for a variant that failed to
    compile (IREE's default pipeline cannot take some dispatches)."""
    for row in report["rows"]:
        for v in VARIANTS:
            kernels = row["variants"][v]["kernels"]
            if not kernels and "error" in row["variants"][v]:
                yield row, v, None, ""
            for i, k in enumerate(kernels):
                tag = f" [{i + 1}/{len(kernels)}]" if len(kernels) > 1 else ""
                yield row, v, k, tag


def _failed(row: dict, v: str, columns: int) -> str:
    """A table row for a variant that failed to compile: the error, then `columns` dashes."""
    why = row["variants"][v]["error"].split(":")[0].replace("|", "/")
    return f"| {_label(row)} | {v} | {why} |" + " - |" * columns


def _per_variant(row: dict, v: str, cell) -> str:
    """A summary cell of a variant's kernels, or "failed" where it has none."""
    kernels = row["variants"][v]["kernels"]
    return ",".join(cell(k) for k in kernels) if kernels else "failed" if "error" in row["variants"][v] else "-"


def markdown(report: dict) -> str:
    subject = f"`{report['source']}`, dispatch by dispatch" if "program" in report else "the cases of ldsopt/measure/cases.py"
    lines = ["# gfx942 (MI300X): ldsopt's kernels beside IREE's default, from their ISA", "",
             f"{subject}; commit {report['commit']}{' (working tree had changes)' if report['dirty'] else ''}, "
             f"{report['date']}; ldsopt pipeline `{report['pipeline']}`.",
             "**Static facts, no run**: no HIP device ran these kernels. Each is read from the gfx942 ISA "
             "IREE compiled (`.rocmasm`). Bounds are estimates from bytes and FLOPs, never times.", "",
             "## Bounds (estimates from static facts)", "",
             f"Floors at the MI300X's peaks ({mi300x.SOURCE}): bytes (inputs read once, outputs written once) at "
             f"{mi300x.HBM_BYTES_PER_S / 1e12:.1f} TB/s, FLOPs at the MFMA peak of the operand type (f16/bf16 "
             f"{mi300x.MFMA_PEAK['f16'] / 1e12:.1f} TFLOP/s). *Loop points to*: the bound that the main loop's "
             "MFMA FLOPs per byte one wave requests from global memory point to, against the peak's balance point "
             f"({mi300x.balance('f16'):.0f} FLOP/B for f16; caches not counted, so a matmul tile's reuse shows in "
             "the FLOP/B, its L2 hits do not), for ldsopt / IREE.", "",
             f"| {_subject(report)} |{' calls |' if 'program' in report else ''} bytes | us at HBM BW | "
             "us at MFMA peak | bound | waves/SIMD ldsopt / IREE | loop points to (MFMA FLOP/B) ldsopt / IREE |",
             "|---|---|---|---|---|---|---|" + ("---|" if "program" in report else "")]
    for row in report["rows"]:
        b = row["bound"] or {}
        waves = " / ".join(_per_variant(row, v, _occ) for v in VARIANTS)
        points = " / ".join(_per_variant(row, v, _points) for v in VARIANTS)
        size = bench_replay._size(int(b["bytes_us"] * mi300x.HBM_BYTES_PER_S / 1e6)) if b else "-"
        calls = f" {row['calls']} |" if "calls" in row else ""
        lines.append(f"| {_label(row)} |{calls} {size} | {_us(b.get('bytes_us'))} | {_us(b.get('flops_us'))} | "
                     f"{b.get('bound', '-')} | {waves} | {points} |")
    lines += ["", "## Resources", "",
              "VGPRs include the AGPRs (one 512-register file per SIMD lane on gfx942); waves per SIMD by the "
              "limits in `figures.occupancy` of the JSON, with the resource that sets them; bank conflicts: "
              "the bank model's extra LDS cycles of the first wave's stores / reads of each LDS buffer an "
              "ldsopt pass planned, as its planner priced them (A, B: a matmul's operands).", "",
              f"| {_subject(report)} | variant | lowered by | VGPR / AGPR / SGPR | waves/SIMD | LDS B | scratch B / spills | loops | "
              "bank conflicts per buffer (stores/reads) |", "|---|---|---|---|---|---|---|---|---|"]
    for row, v, k, tag in _kernel_rows(report):
        if k is None:
            lines.append(_failed(row, v, 6))
            continue
        by = ", ".join(p.removeprefix("ldsopt-") for p in k["passes"]) or ("IREE" if v == "ldsopt" else "-")
        lines.append(f"| {_label(row)}{tag} | {v} | {by} | {k['vgprs']} / {k['agprs']} / {k['sgprs']} | {_occ(k)} | "
                     f"{k['lds_bytes']} | {k['scratch_bytes']} / {k['vgpr_spills']}+{k['sgpr_spills']} | {k['loops']} | "
                     f"{_conflicts(k, v)} |")
    for title, key in (("One trip through the main loop", "loop"), ("Whole kernel", "kernel")):
        lines += ["", f"## {title}", "",
                  "Instructions of one wave; MFMA by shape and type, LDS and global accesses by width "
                  "(ds_read2_b64: two 8-byte reads), LDS-direct: `buffer_load ... lds`."
                  + (" The main loop: the innermost loop with the most MFMA FLOPs, then accesses; '-': no loop."
                     if key == "loop" else ""), "",
                  f"| {_subject(report)} | variant | MFMA | ds_read | ds_write | global load | global store | LDS-direct | "
                  "s_waitcnt | s_barrier | v_perm_b32 |" + (" MFMA FLOPs per global byte |" if key == "loop" else ""),
                  "|---|---|---|---|---|---|---|---|---|---|---|" + ("---|" if key == "loop" else "")]
        for row, v, k, tag in _kernel_rows(report):
            if k is None:
                lines.append(_failed(row, v, len(COUNTED) - 1 + (key == "loop")))
                continue
            c = k[key]
            cells = " | ".join(_cell(c, kind) for kind in COUNTED)
            extra = ""
            if key == "loop":
                p = k["points_to"]
                extra = f" {p['why']} → {p['bound']} |" if c else " - |"
            lines.append(f"| {_label(row)}{tag} | {v} | {cells} |{extra}")
    return "\n".join(lines) + "\n"


def plot(report: dict, path: str) -> bool:
    """gfx942_report.png: per kernel, ldsopt's beside IREE's: waves per SIMD, VGPRs, LDS KiB.
    False without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    labels, values = [], {v: [] for v in VARIANTS}
    for row in report["rows"]:
        n = max(len(row["variants"][v]["kernels"]) for v in VARIANTS)
        for i in range(n):
            labels.append(program_bench.short(row["name"]) + (f" [{i + 1}]" if n > 1 else ""))
            for v in VARIANTS:
                ks = row["variants"][v]["kernels"]
                values[v].append(ks[i] if i < len(ks) else None)
    panels = (("waves per SIMD", lambda k: k["occupancy"]["waves"]), ("VGPRs (AGPRs included)", lambda k: k["vgprs"]),
              ("LDS KiB", lambda k: k["lds_bytes"] / 1024))
    fig, axes = plt.subplots(1, len(panels), sharey=True, figsize=(14, 1.5 + 0.28 * len(labels)))
    height = 0.4
    for ax, (title, get) in zip(axes, panels):
        for j, v in enumerate(VARIANTS):
            ax.barh([y + (j - 0.5) * height for y in range(len(labels))],
                    [get(k) if k else 0 for k in values[v]], height, label=v)
        ax.set_title(title, fontsize=9)
    axes[0].set_yticks(range(len(labels)), labels, fontsize=7)
    axes[0].invert_yaxis()
    axes[0].legend(fontsize=8)
    what = report.get("source") or "ldsopt/measure/cases.py"
    fig.tight_layout()
    fig.suptitle(f"gfx942 static report (ISA, not run): {what}, commit {str(report['commit'])[:10]}", fontsize=10,
                 y=1.0, va="bottom")
    fig.savefig(path, dpi=110, bbox_inches="tight")  # the title above the panels
    plt.close(fig)
    return True


def write(folder: str, out: str | None = None) -> dict:
    out = out or folder
    os.makedirs(out, exist_ok=True)
    rep = report(folder)
    timing.write_report(rep, out, STEM, markdown, plot)
    return rep


def join(folder: str, out: str | None = None) -> bool:
    """Where a HIP device timed a gfx942 folder: writes the static report beside the times and
    adds each case's (or dispatch's) kernels to results.json (program_results.json), under
    "static", and the report's tables to the .md. False (nothing written) for a folder of
    another target, or without ISA files."""
    out = out or folder
    try:
        with open(os.path.join(folder, "manifest.json")) as f:
            man = json.load(f)
    except (OSError, ValueError):  # not a prepared folder: the replay said so
        return False
    if man.get("target") != "gfx942":
        return False
    try:
        rep = write(folder, out)
    except KeyError:  # a folder prepared before the ISA was kept
        return False
    stem = "program_results" if "program" in rep else "results"
    path = os.path.join(out, stem + ".json")
    if not os.path.exists(path):
        return True
    with open(path) as f:
        results = json.load(f)
    static = {row["name"]: {v: row["variants"][v]["kernels"] for v in VARIANTS} for row in rep["rows"]}
    for r in results["dispatches" if "program" in rep else "cases"]:
        r["static"] = static.get(r["name"])
    results["static_report"] = STEM + ".json"
    with open(path, "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(out, stem + ".md"), "a") as f:
        f.write("\n" + markdown(rep).replace("\n# ", "\n## ", 1).replace("# gfx942", "## gfx942", 1))
    return True


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ldsopt.measure.gfx942_report", description=__doc__.split("\n")[0])
    ap.add_argument("folder", help="a folder made by lds-bench --target gfx942 --prepare")
    ap.add_argument("--out", help="where gfx942_report.{json,md,png} go (default: the folder)")
    args = ap.parse_args(argv)
    try:
        write(args.folder, args.out)
    except (OSError, ValueError, KeyError) as e:
        print(f"{args.folder}: error: {e}", file=sys.stderr)
        return 1
    print(f"wrote {os.path.join(args.out or args.folder, STEM)}.{{json,md,png}}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
