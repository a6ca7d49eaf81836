"""The elementwise consumer that IREE fuses after a dispatch's root op (a bias, GELU, a
residual, a cast): `Epilogue` and `match_epilogue`, shared by the kernels that apply its body
to each output value before the store instead of storing the root's result (the matmul's,
ldsopt/matmul/match.py, and the reduction's, ldsopt/reduction/match.py); `loaded_projections`
reads the inputs of such a fused elementwise op (the matmul's prologues too)."""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt.codegen.dispatch import Binding, Graph
from ldsopt.codegen.elementwise import body_refusal, map_dims
from ldsopt.remarks import Unmatched


@dataclasses.dataclass
class Epilogue:
    """The elementwise linalg.generic fused after the root, over the root's output space (its
    loops are the root result's dims, in its memory order): applied to each output value
    before the store."""

    op: ir.Operation
    # Per input of `op`: None for the root's result (read through the identity map), else a
    # loaded binding and the loops (positions in the root result's dims, ascending) it reads.
    inputs: list[tuple[Binding, tuple[int, ...]] | None]
    # The loops of the stored result's dims, in its memory order: a permutation of the loops
    # (attention's head merge writes (b, m, n) as (m, b, n)).
    out_dims: tuple[int, ...]
    # The consumer's other results (`match_epilogue(results=True)`), each stored whole too: its
    # binding and its dims' loops, as `out_dims` (LeViT's BatchNorm, stored as is and permuted).
    extra: tuple[tuple[Binding, tuple[int, ...]], ...] = ()


def loaded_projections(g: Graph, op: ir.Operation, skip: ir.Value | None, fused: str,
                       computed: dict | None = None,
                       permuted: bool = False) -> list[tuple[Binding, tuple[int, ...]] | None] | Unmatched:
    """Per input of elementwise `op`: None for `skip`, else its loaded binding (or what
    `computed` maps it to: a value the kernel computes itself) and the loops it reads (an
    ascending projection; with `permuted`, in any order)."""
    computed = computed or {}
    maps = [ir.AffineMapAttr(a).value for a in op.attributes["indexing_maps"]]
    inputs = []
    for v, m in zip(list(op.operands)[:len(maps) - len(op.results)], maps):
        if skip is not None and v == skip:
            inputs.append(None)
            continue
        b, dims = computed.get(v) or g.binding_of(v), map_dims(m)
        if b is None:
            return Unmatched(f"{fused}: an input of the {'consumer' if skip else 'producer'} is not a "
                             "whole-tensor load of a binding")
        if dims is None or dims != sorted(set(dims)) and not (permuted and len(set(dims)) == len(dims)):
            return Unmatched(f"{fused}: the {'consumer' if skip else 'producer'} reads a binding through {m}; "
                             f"takes {'projections' if permuted else 'ascending projections'}")
        inputs.append((b, tuple(dims)))
    return inputs


def match_epilogue(g: Graph, root: ir.Operation, epi: ir.Operation, role: str,
                   computed: dict | None = None, results: bool = False) -> Epilogue | Unmatched:
    """The epilogue of a root op whose one result feeds only an all-parallel elementwise
    linalg.generic over its output space, which reads it through the identity map and loaded
    bindings through projections of the loops (a bias, a residual; in any order: ConvNeXt's
    NCHW residual after its channels-last product), may compute with its element's position
    (`linalg.index`: an average pool's count of the window's points inside the image), and
    whose result alone is stored, through a permutation of the loops. `role` names the root
    in the reasons ("the matmul"); `computed`: inputs the kernel computes
    (`loaded_projections`). `results`: the consumer may have several results, each stored once
    (the first is the kernel's output, the others `Epilogue.extra`)."""
    fused = f"a {root.name} with a fused {epi.name}"
    if len(root.results) != 1 or epi.name != "linalg.generic" or len(epi.results) != 1 and not results:
        return Unmatched(f"{fused}: takes {role} followed by one elementwise linalg.generic")
    result = root.results[0]
    users = [u.owner for u in result.uses]
    if len(users) != 1 or users[0] != epi:
        return Unmatched(f"{fused}: {role}'s result has {len(users)} uses; takes one elementwise consumer")
    stored = dict(g.stores)
    if len(g.stores) != len(epi.results) or any(r not in stored for r in epi.results):
        return Unmatched(f"{fused}: stores {len(g.stores)} results; takes the consumer's "
                         + ("results, each stored once" if results else "one result stored"))
    rank = ir.RankedTensorType(result.type).rank
    identity = ir.AffineMap.get_identity(rank)
    maps = [ir.AffineMapAttr(a).value for a in epi.attributes["indexing_maps"]]
    if any("reduction" in str(it) for it in epi.attributes["iterator_types"]) or maps[0].n_dims != rank:
        return Unmatched(f"{fused}: the consumer is not all-parallel over {role}'s output")
    dims = []
    for m in maps[len(maps) - len(epi.results):]:
        d = map_dims(m)
        if d is None or sorted(d) != list(range(rank)):
            return Unmatched(f"{fused}: the consumer writes its result through {m}; takes permutations")
        dims.append(tuple(d))
    refused = body_refusal(epi, positions=True)
    if refused:
        return Unmatched(f"{fused}: the consumer's {refused}")
    if any(v == result and m != identity for v, m in zip(epi.operands, maps)):
        return Unmatched(f"{fused}: the consumer reads {role}'s result through a non-identity map")
    inputs = loaded_projections(g, epi, result, fused, computed, permuted=True)
    if not isinstance(inputs, list):
        return inputs
    return Epilogue(epi, inputs, dims[0], tuple((stored[r], d) for r, d in zip(list(epi.results)[1:], dims[1:])))
