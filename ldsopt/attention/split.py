"""Split-KV (flash-decoding) of a program's `iree_linalg_ext.attention`: the keys split into S
equal chunks, each chunk's attention a workgroup of its own, then the chunks combined
(ldsopt-split-attention, passes/split_attention.py).

    A = attention(Q, K, V, scale[, mask]) { region }            out [.., m, .., n]
becomes
    K', V'[, mask'] = expand_shape: the key dim k2 -> [S, k2 / S]
    acc, max, sum = online_attention(Q, K', V', scale[, mask']) { region }
        a new loop s (read by K', V', the mask and the results, not by Q): per chunk the
        unnormalized accumulator [s, out dims] (f32), the running max and sum [s, out dims
        but n] (f32, base 2, from the fills -3.40282347e38 and 0, as IREE's own
        online_attention starts), which ldsopt-attention's kernel stores as they are;
    M, L, O = linalg.generic, s reduced (the combine): per output element, over s in order,
        M' = max(M, max_s), L' = L 2^(M - M') + sum_s 2^(max_s - M'),
        O' = O 2^(M - M') + acc_s 2^(max_s - M')     (M from -3.40282347e38, L and O from 0)
    A = linalg.generic: (1 / L) * O, cast to the output's type   (IREE's normalization)
IREE forms two dispatches: the partial attentions (S times the workgroups) and the combine,
whose consumer fuses into it; ldsopt-attention lowers both. A chunk whose every score is
-inf ends with max = -3.40282347e38 and sum 0 and weighs 2^(-3.4e38 - M') = 0 in the combine
unless every chunk is so, when the output is 0 / 0 = NaN, as unsplit.

Taken: static shapes (a dynamic attention is left alone with a remark: its chunks would not
be equal, nor its rows known to be few), every operand read through a projection of the loops (a mask broadcasts
by leaving loops out), the key dim read by K, V and the mask, a score region that does not read
loop indices (`iree_linalg_ext.index` would see the chunk's key). Maps with constant indices are
left alone: IREE 3.13's AttentionOp verifier reads a constant index as a loop's and reads out of
bounds (a segfault, not every time), so no rewrite should carry one further.
"""

from __future__ import annotations

import dataclasses
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, linalg, tensor

from ldsopt.codegen.loop_split import expand_dim, iterators_attr, map_attr
from ldsopt.matmul.match import DYNAMIC
from ldsopt.remarks import Unmatched


ATTENTION = "iree_linalg_ext.attention"
ONLINE = "iree_linalg_ext.online_attention"
MAX_INIT = -3.40282347e38  # the running max's start, as IREE's online attention fills it


@dataclasses.dataclass
class Candidate:
    op: ir.Operation
    maps: list[list[int]]      # per operand with a map (q, k, v, scale, [mask], out): its loops
    roles: list[str]
    rank: int
    k2: int                    # the key loop
    n: int                     # the value loop
    keys: int                  # extent of k2
    rows: int                  # query rows (the loops of Q and out that K does not read)
    groups: int                # the other loops of the output (batch, heads): workgroups unsplit


def _loops(m: ir.AffineMap) -> list[int] | None:
    """The loop each result of `m` reads; None for a map of other expressions."""
    if not all(isinstance(e, ir.AffineDimExpr) for e in m.results):
        return None
    return [ir.AffineDimExpr(e).position for e in m.results]


def match(op: ir.Operation) -> Candidate | Unmatched | None:
    """The attention op as split.py takes it; Unmatched for a dynamic one (a remark); None
    for any other."""
    if op.name != ATTENTION or len(op.results) != 1:
        return None
    maps = [_loops(ir.AffineMapAttr(a).value) for a in op.attributes["indexing_maps"]]
    if any(m is None for m in maps) or len(maps) not in (5, 6):
        return None
    roles = ["q", "k", "v", "scale"] + (["mask"] if len(maps) == 6 else []) + ["out"]
    by = dict(zip(roles, maps))
    operands = dict(zip(roles, op.operands))
    shaped = [r for r in roles if r != "scale"]
    if not all(isinstance(operands[r].type, ir.RankedTensorType) for r in shaped):
        return None
    if not all(ir.RankedTensorType(operands[r].type).has_static_shape for r in shaped):
        return Unmatched(f"{DYNAMIC}: splits a key count known here into equal chunks, for query rows known to be "
                         "few; left unsplit, to ldsopt-attention's kernel (its key splits in a workgroup)")
    rank = ir.AffineMapAttr(op.attributes["indexing_maps"][0]).value.n_dims
    sizes = {}
    for r in shaped:
        sizes.update(zip(by[r], ir.RankedTensorType(operands[r].type).shape))
    k2s = [d for d in range(rank) if d in by["k"] and d in by["v"] and d not in by["q"] and d not in by["out"]]
    ns = [d for d in range(rank) if d in by["v"] and d in by["out"] and d not in by["k"]]
    if len(k2s) != 1 or len(ns) != 1:
        return None
    block = op.regions[0].blocks[0]
    if any(o.operation.name == "iree_linalg_ext.index" for o in block.operations):
        return None
    rows = math.prod(sizes[d] for d in by["q"] if d in by["out"] and d not in by["k"])
    groups = math.prod(sizes[d] for d in by["out"] if d in by["k"])
    return Candidate(op, maps, roles, rank, k2s[0], ns[0], sizes[k2s[0]], rows, groups)


def _filled(shape: list[int], value: float) -> ir.Value:
    f32 = ir.F32Type.get()
    return linalg.fill(arith.constant(f32, value), outs=[tensor.EmptyOp(shape, f32).result])


def rewrite(c: Candidate, splits: int) -> None:
    """Replaces the attention by its S = `splits` partial attentions and their combine."""
    op, s = c.op, c.rank  # the new loop s is the last
    rank = c.rank + 1
    by = dict(zip(c.roles, c.maps))
    operands = dict(zip(c.roles, op.operands))
    out_t = ir.RankedTensorType(op.results[0].type)
    out_dims = by["out"]
    out_shape = list(out_t.shape)
    stat_dims = [d for d in out_dims if d != c.n]
    stat_shape = [e for d, e in zip(out_dims, out_shape) if d != c.n]
    with ir.InsertionPoint(op), op.location:
        new_operands, new_maps = [], []
        for role in c.roles[:-1]:
            value, dims = operands[role], by[role]
            if c.k2 in dims:
                at = dims.index(c.k2)
                value = expand_dim(value, at, splits)
                dims = dims[:at] + [s] + dims[at:]
            new_operands.append(value)
            new_maps.append(map_attr(rank, dims))
        inits = [_filled([splits] + out_shape, 0.0), _filled([splits] + stat_shape, MAX_INIT),
                 _filled([splits] + stat_shape, 0.0)]
        new_maps += [map_attr(rank, [s] + out_dims), map_attr(rank, [s] + stat_dims), map_attr(rank, [s] + stat_dims)]
        online = ir.Operation.create(ONLINE, results=[v.type for v in inits], operands=new_operands + inits,
                                     attributes={"indexing_maps": ir.ArrayAttr.get(new_maps)}, regions=1)
        old_block = op.regions[0].blocks[0]
        block = online.regions[0].blocks.append(*[a.type for a in old_block.arguments])
        for old_arg, new_arg in zip(old_block.arguments, block.arguments):
            old_arg.replace_all_uses_with(new_arg)
        for body_op in list(old_block.operations):
            block.append(body_op.operation)
        acc, mx, sm = online.results
        _combine(acc, mx, sm, out_dims, c.n, out_t, operands["out"], op)


def _combine(acc, mx, sm, out_dims: list[int], n: int, out_t: ir.RankedTensorType, out_init: ir.Value,
             op: ir.Operation) -> None:
    """The combine generic and the normalization after it; replaces `op`'s result."""
    r = len(out_dims)
    pos = {d: i for i, d in enumerate(out_dims)}  # the combine's loops: the output's dims, then s
    stat = [pos[d] for d in out_dims if d != n]
    f32 = ir.F32Type.get()
    shape = list(out_t.shape)
    inits = [_filled(shape, MAX_INIT), _filled(shape, 0.0), _filled(shape, 0.0)]
    ident = list(range(r))
    maps = [map_attr(r + 1, [r] + ident), map_attr(r + 1, [r] + stat), map_attr(r + 1, [r] + stat)] + [map_attr(r + 1, ident)] * 3
    comb = linalg.GenericOp([v.type for v in inits], [acc, mx, sm], inits, ir.ArrayAttr.get(maps),
                            iterators_attr(["parallel"] * r + ["reduction"]))
    block = comb.regions[0].blocks.append(*[f32] * 6)
    a_s, m_s, l_s, m, l, o = block.arguments
    with ir.InsertionPoint(block):
        m2 = arith.maximumf(m, m_s)
        old = _exp2(arith.subf(m, m2))
        new = _exp2(arith.subf(m_s, m2))
        l2 = arith.addf(arith.mulf(l, old), arith.mulf(l_s, new))
        o2 = arith.addf(arith.mulf(o, old), arith.mulf(a_s, new))
        linalg.YieldOp([m2, l2, o2])
    norm = linalg.GenericOp([out_t], [comb.results[1], comb.results[2]], [out_init],
                            ir.ArrayAttr.get([map_attr(r, ident)] * 3), iterators_attr(["parallel"] * r))
    block = norm.regions[0].blocks.append(f32, f32, out_t.element_type)
    with ir.InsertionPoint(block):
        value = arith.mulf(arith.divf(arith.constant(f32, 1.0), block.arguments[0]), block.arguments[1])
        if out_t.element_type != f32:
            value = arith.truncf(out_t.element_type, value)
        linalg.YieldOp([value])
    op.results[0].replace_all_uses_with(norm.result)
    op.erase()


def _exp2(x: ir.Value) -> ir.Value:
    return ir.Operation.create("math.exp2", results=[x.type], operands=[x]).result
