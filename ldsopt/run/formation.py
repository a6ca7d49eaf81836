"""The ways `driver.form_dispatches` has IREE form a program's dispatches, and how it ranks
them (standard library only).

Padding fused into its consumer: for a program with a `tensor.pad`, each of the driver's
formations is also tried with FUSE_PADDING, which puts the pad into its consumer's dispatch;
a convolution's zero padding is then read by its implicit GEMM (ldsopt/matmul/implicit_gemm.py)
and a pooling window's by ldsopt-window-reduce, instead of copied into a padded buffer by a
dispatch of its own. A way ranks by the dispatches it leaves to IREE, then by those of them
that hold a fused pad (a padding that no pass reads keeps IREE's own copy of it, and the
consumer stays ldsopt's), then by how many dispatches it forms."""

from __future__ import annotations

from typing import Iterator

FUSE_PADDING = ("--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops",)


def ways(program: str, formations: tuple[tuple[str, ...], ...]) -> Iterator[tuple[str, ...]]:
    """`formations` in order, each followed by itself with FUSE_PADDING where `program` pads."""
    pads = "tensor.pad" in program
    for way in formations:
        yield way
        if pads:
            yield way + FUSE_PADDING


def score(report: list[dict], lowered: str) -> tuple[int, int, int]:
    """(dispatches left to IREE, those of them computing a tensor.pad, dispatches) of a way:
    its dispatch report and its module after the ldsopt pipeline. Less is better; (0, 0, 1)
    is the best there is."""
    pads = sum("= tensor.pad " in body for body in lowered.split("func.func @")[1:])
    return sum(1 for d in report if not d["passes"]), pads, len(report)
