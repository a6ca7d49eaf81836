"""Split-K on tensors, before IREE forms dispatches: the library of ldsopt-split-matmul
(passes/split_matmul.py states the contract).

- `candidate` reads a linalg contraction of the program as ldsopt-matmul-lds would read its
  dispatch (`match.contraction_form`), or says why it cannot be split;
- `cost` prices it unsplit and split into S chunks of K with the matmul plan's own cost
  model (`planner.plan` and `planner.plan_cost`, the default plan options on the target): the
  busiest compute unit's time of the product, plus, split, the second dispatch and the
  partials' round trip through memory (`SECOND_DISPATCH_COST`, `PARTIAL_COST`);
- `rewrite` replaces the contraction C[b?, m, n] = init + sum_k A * B by
  1. its inputs that read k expanded to [.., S, K / S, ..] (views: IREE folds them into the
     dispatch's loads);
  2. a `linalg.generic` batched over the chunk s, summing its K / S products into partials
     P[s, b?, m, n] of the accumulator type (f32; i32 for i8) from zero, the body
     `out + ext(a) * ext(b)`: a batch matmul whose chunk dim sits inside A's (and an NT B's)
     memory order, a second batch dim where the matmul has one, as ldsopt-matmul-lds takes it;
  3. a `linalg.generic` reducing s: init + sum_s P[s], into the original init (a fill or a
     loaded tensor), whose result replaces C: a consumer of C (bias, GELU, residual, cast)
     now reads the total, applied once after the sum.
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from ldsopt import target as target_model
from ldsopt.codegen.loop_split import expand_input, iterators_attr, maps_attr, split_dims
from ldsopt.matmul.match import ACCUMULATORS, ROOTS, ContractionForm, MatmulProblem, contraction_form, \
    program_problem
from ldsopt.matmul.options import PlanChoice
from ldsopt.matmul.planner import plan, plan_cost
from ldsopt.remarks import Unmatched

# What a split adds to the product's time, in the plan cost model's multiply-adds: the second
# dispatch's launch and wait, and per partial its f32 write and read back. Estimated from the
# H200's rate of the model's units (bench/results/cuda-matmul/split-k-5b4e925/README.md has the
# figures), not fitted to split kernels yet.
SECOND_DISPATCH_COST = 3e6
PARTIAL_COST = 3
# A lowering the user chose for this op, which a split would drop.
_USER_CONFIGS = ("compilation_info", "lowering_config")


@dataclasses.dataclass
class Candidate:
    op: ir.Operation
    form: ContractionForm
    elem_type: ir.Type
    acc_type: ir.Type


@dataclasses.dataclass(frozen=True)
class Cost:
    """The plan's cost model's view of the product split into `splits` chunks (1: unsplit)."""

    splits: int
    tiles: int    # workgroups of the product (with the chunks)
    time: float   # the busiest compute unit's, in the model's multiply-adds, what the split adds included


def candidate(op: ir.Operation) -> Candidate | Unmatched:
    """The contraction `op` of the program if it is one whose K a split can take."""
    if op.name not in ROOTS or len(op.results) != 1 or \
            not all(isinstance(v.type, ir.RankedTensorType) and ir.RankedTensorType(v.type).has_static_shape
                    for v in [*op.operands, *op.results]):
        return Unmatched("not a contraction of static tensors")
    if any(name in op.attributes for name in _USER_CONFIGS):
        return Unmatched("it carries a lowering the user chose")
    if "indexing_maps" not in op.attributes:
        return Unmatched(f"{op.name} without indexing maps")
    form = contraction_form(op)
    if not form:
        return form
    if form.rounded:
        return Unmatched(f"its result is {form.out_type}, rounded after every add: its partials would be summed in "
                         "another type than its init")
    elem = ir.RankedTensorType(op.operands[0].type).element_type
    return Candidate(op, form, elem, ir.Type.parse(ACCUMULATORS[str(elem)]))


def _problem(c: Candidate, splits: int) -> MatmulProblem:
    """The planner's view of the product split into `splits` chunks: a batch `splits` times
    larger, K / splits long (no epilogue: it moves to the reduction)."""
    f = c.form
    return dataclasses.replace(program_problem(c.op, f), sizes={**f.sizes, "b": f.sizes["b"] * splits,
                                                                 "k": f.sizes["k"] // splits},
                               batched=splits > 1 or bool(f.batches))


def cost(c: Candidate, splits: int, tgt: target_model.Target, choice: PlanChoice) -> Cost | None:
    """The product's cost split into `splits` chunks of K (1: unsplit); None where no plan fits."""
    p = _problem(c, splits)
    pl = plan(p, tgt, choice.lds_budget(tgt), choice.mma, choice.tilings, choice.k_pack, choice.stages,
              choice.k_bytes)
    if pl is None:
        return None
    time = plan_cost(p, pl, tgt)[0]
    if splits > 1:
        partials = splits * c.form.sizes["b"] * c.form.sizes["m"] * c.form.sizes["n"]
        time += SECOND_DISPATCH_COST + PARTIAL_COST * partials
    return Cost(splits, math.prod(pl.grid(p.sizes)), time)


def split_counts(k: int, max_splits: int, min_chunk: int) -> list[int]:
    """The chunk counts a split may take: divisors of K in [2, max_splits] whose chunks keep at
    least `min_chunk` elements of K (chunks are views of the operands: no padding)."""
    return [s for s in range(2, min(max_splits, k // min_chunk) + 1) if k % s == 0]


def rewrite(c: Candidate, splits: int) -> None:
    """The module docstring's rewrite of `c` into `splits` chunks of K."""
    op, f = c.op, c.form
    k, rank = f.k, len(f.dims[2]) + 1  # the output reads every loop but k
    out_type = ir.RankedTensorType(op.results[0].type)
    out_rank = out_type.rank
    partial_type = ir.RankedTensorType.get([splits, *out_type.shape], c.acc_type)
    # Loop k became (k: the chunk, k + 1: K within it); the partials hold the chunk first.
    partial_dims = [k] + [d + (d > k) for d in f.dims[2]]
    iterators = ["parallel"] * (rank + 1)
    iterators[k + 1] = "reduction"
    with ir.InsertionPoint(op), op.location:
        inputs = [expand_input(v, dims, k, splits) for v, dims in zip(list(op.operands)[:2], f.dims[:2])]
        zero = arith.constant(c.acc_type, ir.IntegerAttr.get(c.acc_type, 0) if isinstance(c.acc_type, ir.IntegerType)
                              else ir.FloatAttr.get(c.acc_type, 0.0))
        init = linalg.fill(zero, outs=[tensor.EmptyOp(partial_type.shape, c.acc_type).result])
        partial = linalg.GenericOp([partial_type], inputs, [init],
                                   maps_attr([split_dims(d, k) for d in f.dims[:2]] + [partial_dims], rank + 1),
                                   iterators_attr(iterators))
        _multiply_add_body(partial.operation, c)
        total = linalg.GenericOp([out_type], [partial.result], [op.operands[2]],
                                 maps_attr([list(range(out_rank + 1)), list(range(1, out_rank + 1))], out_rank + 1),
                                 iterators_attr(["reduction"] + ["parallel"] * out_rank))
        block = total.regions[0].blocks.append(c.acc_type, c.acc_type)
        with ir.InsertionPoint(block):
            linalg.YieldOp([_add(c.acc_type, block.arguments[1], block.arguments[0])])
    op.results[0].replace_all_uses_with(total.result)
    op.erase()


def _add(t: ir.Type, x: ir.Value, y: ir.Value) -> ir.Value:
    return arith.addi(x, y) if isinstance(t, ir.IntegerType) else arith.addf(x, y)


def _multiply_add_body(op: ir.Operation, c: Candidate) -> None:
    """`out + ext(a) * ext(b)` in the accumulator's type (extsi for i8, extf for 16-bit floats)."""
    block = op.regions[0].blocks.append(c.elem_type, c.elem_type, c.acc_type)
    a, b, out = block.arguments
    integer = isinstance(c.acc_type, ir.IntegerType)
    with ir.InsertionPoint(block):
        if c.elem_type != c.acc_type:
            a, b = ((arith.extsi if integer else arith.extf)(c.acc_type, v) for v in (a, b))
        linalg.YieldOp([_add(c.acc_type, out, arith.muli(a, b) if integer else arith.mulf(a, b))])
