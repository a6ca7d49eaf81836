"""How ldsopt-split-matmul chooses the chunks of K: the divisors it may take, and the matmul
plan's cost model's choice per target (the module docstring of passes/split_matmul.py)."""

import pytest
from iree.compiler import ir

from ldsopt import registry, shared_context
from ldsopt import target as target_model
from ldsopt.matmul import split


@pytest.mark.parametrize("k, expected", [
    (8192, [2, 4, 8, 16, 32]),   # chunks of 256 at least: 32 at most
    (8191, []),                  # prime: no chunks without padding
    (4095, [3, 5, 7, 9, 13, 15]),
    (512, [2]),
])
def test_split_counts(k, expected):
    assert split.split_counts(k, max_splits=64, min_chunk=256) == expected


def _matmul(m: int, n: int, k: int) -> str:
    return (f"func.func @main(%a: tensor<{m}x{k}xf16>, %b: tensor<{k}x{n}xf16>, %c: tensor<{m}x{n}xf32>) "
            f"-> tensor<{m}x{n}xf32> {{\n  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf16>, tensor<{k}x{n}xf16>) "
            f"outs(%c : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>\n  return %r : tensor<{m}x{n}xf32>\n}}")


def _choice(m: int, n: int, k: int, target: str, options: str = ""):
    """What the pass chooses for the f16 matmul m x n x k on `target`: (unsplit, split) costs,
    or the reason it leaves it ("" where it fills the machine)."""
    with shared_context.get():
        module = ir.Module.parse(_matmul(m, n, k))
        found = []
        module.operation.walk(lambda op: (found.append(op) if op.name == "linalg.matmul" else None,
                                          ir.WalkResult.ADVANCE)[1])
        return registry.lookup("ldsopt-split-matmul").from_options(options)._choose(
            split.candidate(found[0]), target_model.by_name(target))


@pytest.mark.parametrize("shape, target, splits", [
    ((64, 64, 8192), "cuda", 32),     # 8 tiles on 132 SMs: 128 workgroups of 256
    ((64, 64, 8192), "gfx942", 32),
    ((16, 768, 3072), "cuda", 8),     # a skinny FFN down: 24 tiles -> 96 workgroups
    ((37, 50, 4095), "cuda", 15),
])
def test_splits_where_the_tiles_leave_the_machine_idle(shape, target, splits):
    unsplit, best = _choice(*shape, target)
    assert best.splits == splits and best.tiles > unsplit.tiles and best.time * 1.25 <= unsplit.time


@pytest.mark.parametrize("shape, target, why", [
    ((512, 768, 768), "cuda", "the best split (2 chunks) costs"),       # BERT's projection: not worth it
    ((512, 768, 3072), "cuda", "the best split (4 chunks) costs"),
    ((4096, 4096, 4096), "cuda", ""),                                   # fills the machine: no remark
    ((64, 64, 8192), "lavapipe", ""),                                   # 4 tiles fill 4 CPU threads
    ((64, 64, 8191), "cuda", "K = 8191: it has no divisor in [2, 64]"),
])
def test_leaves_alone(shape, target, why):
    reason = _choice(*shape, target)
    assert isinstance(reason, str) and why in reason and (why or not reason)


def test_forced_splits_take_any_divisor_even_where_the_tiles_fill_the_machine():
    unsplit, best = _choice(64, 64, 8192, "lavapipe", "splits=4")
    assert (unsplit.tiles, best.splits) == (4, 4)
    assert "splits=3 does not divide it" in _choice(64, 64, 8192, "cuda", "splits=3")
