"""Which dispatches are single reductions, for ldsopt-vector-distribute (its module docstring
states the contract): a `linalg.generic` with reduction iterators or a `linalg.reduce` whose
inputs read the whole iteration space through one permutation, whose body ends in one
combining op of the output and a value of the inputs, and whose output starts as a fill or a
loaded tensor (`match_reduction`, `Reduction`), alone in its dispatch or followed by a fused
elementwise consumer that ldsopt.reduction.fused_rows does not read as rows
(`analyze_reduction`: the sum of ldsopt-split-matmul's partials with the matmul's bias and
cast)."""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt.codegen.combining import combining_op
from ldsopt.codegen.dispatch import Binding, Dispatch, analyze, analyze_graph, load_binding
from ldsopt.codegen.epilogue import Epilogue, match_epilogue
from ldsopt.codegen.elementwise import map_dims
from ldsopt.ir_types import element_bits
from ldsopt.reduction import fused_rows
from ldsopt.remarks import Unmatched


@dataclasses.dataclass
class Reduction:
    shape: tuple[int, ...]        # the iteration space, in the inputs' dim order
    reduced: tuple[int, ...]
    perm: list[int]               # input dim j is the op's iteration dim perm[j]
    out_order: list[int]          # output dim i holds kept input dim number out_order[i] (of the
                                  # kept ones, in order): the identity unless the output is permuted
    combine: ir.Operation         # the body's combining op
    init: ir.Value | Binding      # the fill value, or the binding of the loaded initial output

    @property
    def kind(self) -> str:
        return self.combine.name

    @property
    def acc_type(self) -> ir.Type:
        return self.combine.results[0].type


def _reduced_dims(root: ir.Operation) -> tuple[tuple[int, ...], list[int], list[int]] | None:
    """(the reduced dims numbered as the input tensors' dims, perm: input dim j reads
    iteration dim perm[j], out_order: output dim i holds the kept input dim numbered
    out_order[i] among the kept ones) if every input reads the iteration space through one
    permutation and the output holds the parallel dims in any order (IREE interchanges
    iterators so that reductions come last); else None."""
    rank = ir.RankedTensorType(root.operands[0].type).rank
    if root.name == "linalg.reduce":
        reduced = tuple(sorted(ir.DenseI64ArrayAttr(root.attributes["dimensions"])))
        return reduced, list(range(rank)), list(range(rank - len(reduced)))
    iters = [str(a) for a in root.attributes["iterator_types"]]
    maps = [map_dims(ir.AffineMapAttr(a).value) for a in root.attributes["indexing_maps"]]
    perm = maps[0]
    if len(iters) != rank or perm is None or sorted(perm) != list(range(rank)) or any(m != perm for m in maps[:-1]):
        return None
    reduced = tuple(j for j in range(rank) if "reduction" in iters[perm[j]])
    kept = [perm[j] for j in range(rank) if j not in reduced]
    if maps[-1] is None or sorted(maps[-1]) != sorted(kept):
        return None
    return reduced, perm, [kept.index(d) for d in maps[-1]]


def _initial_value(root: ir.Operation) -> ir.Value | Binding | None:
    init = root.operands[len(root.operands) - 1]
    if isinstance(init, ir.OpResult) and init.owner.operation.name == "linalg.fill":
        return init.owner.operation.operands[0]
    return load_binding(init)


def match_reduction(root: ir.Operation) -> Reduction | None:
    if len(root.results) != 1:
        return None
    dims = _reduced_dims(root)
    if dims is None or not dims[0]:
        return None
    types = [ir.RankedTensorType(v.type).element_type for v in root.operands]
    # Scalars a lane can hold and shuffle: floats and integers of 8 bits or more (not i1, index).
    if not all(isinstance(t, ir.FloatType) or isinstance(t, ir.IntegerType) and element_bits(t) >= 8
               for t in types):
        return None
    combine = combining_op(root)
    init = _initial_value(root)
    if combine is None or init is None:
        return None
    return Reduction(tuple(ir.RankedTensorType(root.operands[0].type).shape), *dims, combine, init)


@dataclasses.dataclass
class ReductionDispatch(Dispatch):
    """A reduction's dispatch; `output` is where the epilogue's result is stored where it has one."""

    epilogue: Epilogue | None = None


def analyze_reduction(func: ir.Operation, roots: tuple[str, ...]) -> ReductionDispatch | Unmatched:
    """The dispatch of one root op (ldsopt.dispatch.analyze), or of a root with reduction
    iterators followed by one fused elementwise consumer (`epilogue.match_epilogue`) where
    ldsopt.reduction.fused_rows does not take the two as rows (its kernel does that case)."""
    single = analyze(func, roots, dynamic=True)
    if single:
        return ReductionDispatch(**{f.name: getattr(single, f.name) for f in dataclasses.fields(Dispatch)})
    g = analyze_graph(func, roots)
    if not g or len(g.ops) != 2 or fused_rows.match_rows(g):
        return single
    root, epi = g.ops
    epilogue = match_epilogue(g, root, epi, "the reduction")
    if not epilogue:
        return epilogue
    inputs = [g.binding_of(v) for v in list(root.operands)[:len(root.operands) - 1]]
    if None in inputs:
        return Unmatched(f"an input of {root.name} is not a whole-tensor load of a binding")
    return ReductionDispatch(g.func, root, inputs, g.stores[0][1], g.body_ops, epilogue=epilogue)
