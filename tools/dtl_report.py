"""The DTL bank-conflict report: `python -m ldsopt.tools.dtl_report [-o bench/dtl_bank_report.md]`.

For each matrix case (test/e2e/programs/matmul and ldsopt/measure/cases.py's 4096^3 f16 TN), planned by
ldsopt-matmul-lds for gfx942, and each operand: the bank model's (ldsopt.banks) predicted extra
cycles per LDS write (one wave's direct-to-LDS load) and per fragment read, with no padding,
block padding only, the perpDim permutation (+ block padding) and the blocked rotation (each the
best of its kind), and what ldsopt-dtl-layout picks, or why it leaves the operand alone; then
the same for the CUDA benchmark cases (NT 4096^3 f16 / bf16) with cp.async's 16-byte lanes.
The choice and the prices are the pass's own (`dtl.choose`, `dtl_layout.fragment_reads`).
"""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import tempfile

from iree.compiler import ir

from ldsopt.cli import output_file
from ldsopt.measure import bench
from ldsopt.run import driver
from ldsopt.layout import dtl
from ldsopt import shared_context
from ldsopt import target as target_model
from ldsopt.ir_types import element_bits
from ldsopt.passes import dtl_layout
from ldsopt.passes.matmul_lds import MatmulLds

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "test" / "e2e" / "programs" / "matmul"
BENCH_CASES = ("matmul_TN_4096x4096x4096_f16",)
CUDA_CASES = ("matmul_NT_4096x4096x4096_f16", "matmul_NT_4096x4096x4096_bf16")  # the H200 benchmarks


@dataclasses.dataclass
class Row:
    case: str
    operand: str
    staging: str                        # dims and tile
    best: dict[str, tuple[dtl.DtlSpec, dtl.Cost]]
    pick: str                           # the pass's layout, or why it left the operand alone


def programs(names: tuple[str, ...] = BENCH_CASES, with_e2e: bool = True) -> list[tuple[str, str]]:
    """(name, program text) of every case of the report: the e2e matrix programs and the bench
    cases named."""
    cases = [(p.stem, p.read_text()) for p in sorted(PROGRAMS.glob("*.mlir"))] if with_e2e else []
    bench_cases = bench.bench_cases.CASES
    return cases + [(c.name, c.mlir) for c in bench_cases if c.name in names]


def rows(name: str, text: str, target: str = "gfx942") -> list[Row]:
    """The report's rows of one program, planned for `target`."""
    tgt_known = target_model.known(target)
    with tempfile.TemporaryDirectory() as folder:
        configured = driver.configure(text, tgt_known, folder)
    out = []
    with shared_context.get():
        module = ir.Module.parse(configured)
        for m in MatmulLds().planned_matmuls(module.operation):
            for role, s in m.plan.staging.items():
                out.append(_row(name, m.problem, m.plan, role, s, m.target))
    return out


def _row(name: str, p, pl, role: str, s, tgt) -> Row:
    elem_bytes = element_bits(p.elem_type) // 8
    staging = f"{role} {''.join(s.dims)} {s.tile[0]}x{s.tile[1]}"
    # The prices also where a guard leaves the operand alone: what DTL would cost without it.
    g = dtl.Geometry(s.tile[0], s.tile[1], elem_bytes, s.threads, tgt.subgroup_size, dtl_layout.DtlLayout().lane(tgt))
    model = tgt.bank_model()
    reads = dtl_layout.fragment_reads(pl, role, s, tgt.subgroup_size)
    _, best = dtl.choose(g, reads, model, dtl.KINDS, s.read_vector)
    try:
        pick = dtl_layout.DtlLayout().rewrite(p, pl, role, s, tgt, tgt.lds_bytes).lds.text
    except dtl_layout.LeftAlone as why:
        pick = f"left alone: {why}"
    return Row(name, role, staging, best, pick)


def _table(all_rows: list[Row]) -> str:
    head = ("| case | operand | " + " | ".join(f"{k} (write / read)" for k in dtl.KINDS) + " | picked |\n"
            "|---|---|" + "---|" * len(dtl.KINDS) + "---|\n")

    def cell(row: Row, kind: str) -> str:
        if kind not in row.best:
            return "-"
        spec, c = row.best[kind]
        return f"{c.write:.2f} / {c.read:.2f} `{spec.text}`"

    return head + "".join(f"| {r.case} | {r.staging} | " + " | ".join(cell(r, k) for k in dtl.KINDS)
                          + f" | {r.pick} |\n" for r in all_rows)


def markdown(all_rows: list[Row], cuda_rows: list[Row]) -> str:
    return ("# DTL bank-conflict report (gfx942, predicted)\n\n"
            "Made by `python -m ldsopt.tools.dtl_report`. Extra LDS cycles per wave-wide access predicted by the "
            "shared bank model (ldsopt/layout/banks.py: 32 banks x 4 B, wave64 served in phases) for the first "
            "wave: *write* = one direct-to-LDS load (64 lanes x 4 B, contiguous from M0), *read* = a "
            "fragment read of one read group (one K step, or two for the K-contiguous operands of a "
            "matrix-core kernel whose operands are all K-contiguous: ldsopt-matmul-lds's k_pack), averaged. Each column is the best layout of its kind; "
            "*picked* is what ldsopt-dtl-layout records (`lds_layout`), or the guard that leaves the operand "
            "alone (its columns then price the layouts it would have had). A model, not a measurement.\n\n"
            "Reading it: a wave's load writes 256 contiguous bytes, so padding can only sit between such "
            "runs (M0); K-contiguous rows are 64 B (the K step), so they start on two banks only, and "
            "padding cannot separate the rows inside one run: the MFMA reads down 16 rows conflict unless "
            "the chunks rotate (or rows are permuted into different runs). The M/N-contiguous operands' "
            "scalar reads along K need padding between runs (alone or after the permutation). Writes are "
            "conflict-free in every layout: DTL keeps each wave's run contiguous.\n\n"
            + _table(all_rows)
            + "\n## CUDA (the H200 benchmarks, predicted)\n\n"
            "The same for the CUDA target (32 banks x 4 B, warps of 32, mma.sync m16n8k16 fragments) and "
            "its default lane, 16-byte cp.async: *write* = one warp's cp.async (512 contiguous bytes), "
            "*read* = a fragment read. `bench/ncu_lds.sh` measures the LDS load conflicts of each layout "
            "(the bench-dtl-cpasync-* folders) to rank against the *read* column.\n\n"
            + _table(cuda_rows))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=str(ROOT / "bench" / "dtl_bank_report.md"))
    args = ap.parse_args(argv)
    report = markdown([r for name, text in programs() for r in rows(name, text)],
                      [r for name, text in programs(CUDA_CASES, False) for r in rows(name, text, "cuda")])
    output_file.write(args.output, report)
    print(report)


if __name__ == "__main__":
    main()
