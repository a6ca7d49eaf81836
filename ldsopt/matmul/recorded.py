"""The stagings a pass before ldsopt-matmul-lds (ldsopt-inthread-transpose, ldsopt-dtl-layout)
records on the matmul's root op for it to emit: `record_staging` writes them
(`ldsopt.staging = {B = {...}}`, and the pass's name in `ldsopt.staged_by`),
`recorded_staging` reads them, and `with_recorded` puts them in the plan, refusing one made
for another plan."""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt.matmul.schemes import MatmulPlan
from ldsopt.layout.tile_layout import ATTR, TileLayout

# On the root op: the passes that recorded a staging layout there (see `record_staging`).
STAGED_BY = "ldsopt.staged_by"


def recorded_staging(root: ir.Operation) -> dict[str, TileLayout]:
    """The staging layouts recorded on the root op as `ldsopt.staging = {B = {...}}`, by operand."""
    if ATTR not in root.attributes:
        return {}
    recorded = ir.DictAttr(root.attributes[ATTR])
    return {r: TileLayout.from_attr(recorded[r]) for r in ("A", "B") if r in recorded}


def record_staging(root: ir.Operation, staging: dict[str, TileLayout], pass_name: str) -> None:
    """Records `staging` on the root op (over what was recorded) for the kernel builder to emit,
    and `pass_name` in `ldsopt.staged_by`, which the kernel reports in `ldsopt.lowered_by`."""
    merged = {**recorded_staging(root), **staging}
    root.attributes[ATTR] = ir.DictAttr.get({r: s.attr() for r, s in sorted(merged.items())})
    names = staged_by(root)
    names += [pass_name] if pass_name not in names else []
    root.attributes[STAGED_BY] = ir.ArrayAttr.get([ir.StringAttr.get(n) for n in names])


def staged_by(root: ir.Operation) -> list[str]:
    """The passes that recorded a staging on the root op, in order."""
    return [ir.StringAttr(a).value for a in root.attributes[STAGED_BY]] if STAGED_BY in root.attributes else []


def with_recorded(pl: MatmulPlan, recorded: dict[str, TileLayout]) -> MatmulPlan:
    """`pl` staging each operand as recorded. A recorded layout was made from this planner's
    layout, so it stages the same tile, for the same threads and fragment; both operands read
    K in one order (k_pack); else ValueError (the plan that a staging pass records with its
    stagings makes this hold: ldsopt/matmul/options.py; IR written by hand may break it)."""
    def key(s: TileLayout):
        return s.dims, s.tile, s.threads, s.fragment, s.buffers

    for r, s in recorded.items():
        if key(s) != key(pl.staging[r]):
            ours = pl.staging[r]
            raise ValueError(f"the staging recorded for {r} ({s.tile} by {s.threads} threads for {s.fragment}, "
                             f"{s.buffers} LDS tiles) is not of this plan ({ours.tile} by {ours.threads} threads "
                             f"for {ours.fragment}, {ours.buffers} LDS tiles)")
    staging = {**pl.staging, **recorded}
    if len({s.k_pack for s in staging.values()}) > 1:
        raise ValueError("the operands' fragment reads group K steps differently (k_pack "
                         + ", ".join(f"{r} {s.k_pack}" for r, s in sorted(staging.items()))
                         + "): the product pairs their K slots")
    return dataclasses.replace(pl, staging=staging)
