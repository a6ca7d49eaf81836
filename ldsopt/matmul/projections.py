"""Projections of one input fused into one matmul, on tensors, before IREE forms dispatches: the
library of ldsopt-fuse-projections (passes/fuse_projections.py states the contract).

- `groups` finds the contractions of a function that read one left operand (A) with constant
  right operands (weights: computed from constants alone, as IREE evaluates them when it
  compiles) of one form, and the chain of elementwise consumers they have alike (a cast, a
  bias): a `Group` of `Member`s;
- `rewrite` replaces a group by one contraction of the weights concatenated along N, the
  consumers applied once on the wide result (their per-N operands, such as the biases,
  concatenated too), and each member's result a slice of it along N; where every use of the
  members splits N into heads of one size, a slice of the wide result's head split replaces
  each split (a slice IREE clones into the consumer's dispatch, as a load at an offset,
  instead of copying it out);
- `last_dim_slices` and `slice_heads` do the same for the slices a program already takes of one
  projection (a Split of GPT-2's fused QKV).
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir
from iree.compiler.dialects import linalg, tensor

from ldsopt.codegen.elementwise import map_dims
from ldsopt.codegen.loop_split import dynamic_dims, expand_dim
from ldsopt.ir_types import producer
from ldsopt.matmul.match import contraction_form

# Ops that compute a constant from constants (IREE's const-eval folds them at compile time).
_CONSTANT_OPS = ("arith.constant", "tensor.empty", "linalg.generic", "linalg.broadcast", "linalg.transpose",
                 "linalg.fill", "linalg.copy", "tensor.expand_shape", "tensor.collapse_shape", "tensor.extract_slice",
                 "tensor.concat")


def is_constant(v: ir.Value) -> bool:
    """`v` is computed from constants alone (a load of an immutable global, such as a model's
    weight in a parameter archive, counts as one)."""
    op = producer(v)
    if op is None:
        return False
    if op.name == "util.global.load":
        return "is_immutable" in op.attributes or _global_is_immutable(op)
    return op.name in _CONSTANT_OPS and all(is_constant(x) for x in op.operands)


def dynamic_extents(x: ir.Value) -> list[ir.Value] | None:
    """The values of x's dynamic extents, where its producer states them: a linalg op's init
    made by `tensor.empty` of them (an export's dynamic sequence); None where it does not."""
    op = producer(x)
    if op is None or not op.name.startswith("linalg.") or not isinstance(x, ir.OpResult):
        return None
    init = producer(op.operands[len(op.operands) - len(op.results) + x.result_number])
    return list(init.operands) if init is not None and init.name == "tensor.empty" else None


def _global_is_immutable(load: ir.Operation) -> bool:
    """The `util.global` a load reads is not mutable (looked up in the top module)."""
    top = load
    while top.parent is not None and top.name != "builtin.module":
        top = top.parent
    name = ir.FlatSymbolRefAttr(load.attributes["global"]).value
    try:
        g = ir.SymbolTable(top)[name]
    except KeyError:
        return False
    return g.operation.name == "util.global" and "is_mutable" not in g.operation.attributes


def _same_body(a: ir.Operation, b: ir.Operation) -> bool:
    """The two ops' single-block regions compute alike: op by op, the same names, attributes and
    result types, each operand the same block argument, the result of the same earlier op, or
    the same value defined outside."""
    if len(a.regions) != len(b.regions):
        return False
    for ra, rb in zip(a.regions, b.regions):
        ba, bb = ra.blocks[0], rb.blocks[0]
        if [str(x.type) for x in ba.arguments] != [str(x.type) for x in bb.arguments]:
            return False
        ops_a, ops_b = [o.operation for o in ba.operations], [o.operation for o in bb.operations]
        if len(ops_a) != len(ops_b):
            return False
        names_a = {("arg", i): x for i, x in enumerate(ba.arguments)}
        names_b = {("arg", i): x for i, x in enumerate(bb.arguments)}

        def name(v: ir.Value, names: dict) -> tuple | ir.Value:
            return next((k for k, x in names.items() if x == v), v)  # an outside value: itself

        for i, (p, q) in enumerate(zip(ops_a, ops_b)):
            if p.name != q.name or [str(r.type) for r in p.results] != [str(r.type) for r in q.results] or \
                    _attributes(p) != _attributes(q) or len(p.operands) != len(q.operands):
                return False
            for u, w in zip(p.operands, q.operands):
                nu, nw = name(u, names_a), name(w, names_b)
                if (nu != nw) if isinstance(nu, tuple) else (isinstance(nw, tuple) or u != w):
                    return False
            names_a.update({("op", i, j): r for j, r in enumerate(p.results)})
            names_b.update({("op", i, j): r for j, r in enumerate(q.results)})
    return True


def _attributes(op: ir.Operation) -> list[tuple[str, str]]:
    return sorted((n, str(op.attributes[n])) for n in op.attributes)


def _same_scalar(a: ir.Value, b: ir.Value) -> bool:
    """One value, or two constants of one value."""
    if a == b:
        return True
    pa, pb = producer(a), producer(b)
    return pa is not None and pb is not None and pa.name == pb.name == "arith.constant" and \
        _attributes(pa) == _attributes(pb)


@dataclasses.dataclass
class Step:
    """One elementwise consumer of a member's chain: the generic, the position of the chain's
    value among its inputs, and per other input whether it is read along N (concatenated)."""

    op: ir.Operation
    chain_at: int
    along_n: dict[int, bool]


def _step(v: ir.Value) -> Step | None:
    """The elementwise consumer of `v` a fused chain can carry: `v`'s one use, an all-parallel
    `linalg.generic` of one result that reads `v` in its own order, writes into an empty tensor
    of its shape, and reads its other inputs, constants, through projections that hold N (the
    last loop) last or not at all."""
    uses = list(v.uses)
    if len(uses) != 1:
        return None
    op = uses[0].owner.operation
    if op.name != "linalg.generic" or len(op.results) != 1 or \
            any("reduction" in str(it) for it in op.attributes["iterator_types"]):
        return None
    inputs, (out,) = list(op.operands)[:-1], list(op.operands)[-1:]
    maps = [map_dims(ir.AffineMapAttr(m).value) for m in op.attributes["indexing_maps"]]
    rank = ir.RankedTensorType(v.type).rank
    identity = list(range(rank))
    at = [i for i, x in enumerate(inputs) if x == v]
    empty = producer(out)
    if len(at) != 1 or maps[at[0]] != identity or maps[-1] != identity or empty is None or \
            empty.name != "tensor.empty" or not _static_n(op.results[0]):
        return None
    along = {}
    for i, x in enumerate(inputs):
        if i == at[0]:
            continue
        if maps[i] is None or not is_constant(x):
            return None
        if rank - 1 in maps[i] and maps[i][-1] != rank - 1:
            return None
        along[i] = rank - 1 in maps[i]
    return Step(op, at[0], along)


@dataclasses.dataclass
class Member:
    op: ir.Operation        # the contraction
    b_at: int               # its weights' operand position
    b_n_dim: int            # the weights' dim along N
    steps: list[Step]       # its chain of consumers, as far as the group shares it

    @property
    def n(self) -> int:
        return ir.RankedTensorType(self.op.results[0].type).shape[-1]

    @property
    def result(self) -> ir.Value:
        return (self.steps[-1].op if self.steps else self.op).results[0]


@dataclasses.dataclass
class Group:
    members: list[Member]


def _fill_value(v: ir.Value) -> ir.Value | None:
    op = producer(v)
    return op.operands[0] if op is not None and op.name == "linalg.fill" else None


def _static_n(v: ir.Value) -> bool:
    """`v`'s last dim (N) is static; the others may be dynamic (an export's sequence)."""
    return not ir.ShapedType.is_dynamic_size(ir.RankedTensorType(v.type).shape[-1])


def _member(op: ir.Operation) -> Member | None:
    """`op` as a projection: a contraction (ldsopt-matmul-lds's forms) from a fill, with constant
    weights of a static shape, and its chain of elementwise consumers."""
    form = contraction_form(op)
    if not form or len(op.results) != 1 or _fill_value(op.operands[2]) is None:
        return None
    b_at, _ = form.roles["B"]
    if not is_constant(op.operands[b_at]) or not ir.RankedTensorType(op.operands[b_at].type).has_static_shape or \
            not _static_n(op.results[0]):  # the wide N is built from static sizes
        return None
    n_loop = form.dims[2][-1]
    steps, v = [], op.results[0]
    while (s := _step(v)) is not None:
        steps.append(s)
        v = s.op.results[0]
    return Member(op, b_at, form.dims[b_at].index(n_loop), steps)


def _alike(a: Member, b: Member) -> bool:
    """Two projections of one input that one contraction can compute: the same form, the same
    weights' shape but along N, the same fill value."""
    x, y = a.op, b.op
    a_at = 1 - a.b_at
    if x.name != y.name or a.b_at != b.b_at or x.operands[a_at] != y.operands[a_at] or \
            str(x.attributes["indexing_maps"]) != str(y.attributes["indexing_maps"]) or not _same_body(x, y):
        return False
    wa, wb = (list(ir.RankedTensorType(m.op.operands[m.b_at].type).shape) for m in (a, b))
    del wa[a.b_n_dim], wb[b.b_n_dim]
    return wa == wb and _same_scalar(_fill_value(x.operands[2]), _fill_value(y.operands[2]))


def _same_step(a: Step, b: Step) -> bool:
    """Two consumers one generic can apply to the wide result: the same body, maps and result
    element type, the chain's value at the same position, the same inputs read along N, and the
    same values where not."""
    elem = [ir.RankedTensorType(s.op.results[0].type).element_type for s in (a, b)]
    return a.chain_at == b.chain_at and a.along_n == b.along_n and elem[0] == elem[1] and \
        str(a.op.attributes["indexing_maps"]) == str(b.op.attributes["indexing_maps"]) and \
        _same_body(a.op, b.op) and all(along or a.op.operands[i] == b.op.operands[i] for i, along in a.along_n.items())


def _shared_steps(members: list[Member]) -> int:
    """How many consumers, from the first, the members' chains have alike."""
    count = 0
    for steps in zip(*(m.steps for m in members)):
        if not all(_same_step(steps[0], s) for s in steps[1:]):
            break
        count += 1
    return count


def groups(func: ir.Operation, roots: tuple[str, ...]) -> list[Group]:
    """The groups of two or more projections of one input in `func`'s body, in program order."""
    found: list[list[Member]] = []
    for op in func.regions[0].blocks[0].operations:
        op = op.operation
        if op.name not in roots:
            continue
        m = _member(op)
        if m is None:
            continue
        for g in found:
            if _alike(g[0], m):
                g.append(m)
                break
        else:
            found.append([m])
    out = []
    for members in found:
        if len(members) > 1:
            shared = _shared_steps(members)
            for m in members:
                m.steps = m.steps[:shared]
            out.append(Group(members))
    return out


def copied_out(g: Group) -> bool:
    """Whether IREE would copy the members' slices of the wide result out, a dispatch each: with a
    dynamic extent, a slice that is not read through a head split (`slice_heads`) is so copied
    (the SwiGLU's gate and up of an export of a dynamic sequence)."""
    dynamic = not ir.RankedTensorType(g.members[0].result.type).has_static_shape
    offsets = [sum(m.n for m in g.members[:i]) for i in range(len(g.members))]
    return dynamic and _head_size([(m.result, o) for m, o in zip(g.members, offsets)]) is None


def _hoist(v: ir.Value, before: ir.Operation, order: dict[ir.Operation, float]) -> None:
    """Moves the constant computation of `v` before `before` where it comes later in the block
    (`order`: the block's ops' positions, kept up to date)."""
    op = producer(v)
    if op is None or order.get(op, -1) < order[before]:
        return
    for x in op.operands:
        _hoist(x, before, order)
    op.move_before(before)
    order[op] = order[before] - 0.5


def _concat(values: list[ir.Value], dim: int) -> ir.Value:
    types = [ir.RankedTensorType(v.type) for v in values]
    shape = list(types[0].shape)
    shape[dim] = sum(t.shape[dim] for t in types)
    return tensor.ConcatOp(ir.RankedTensorType.get(shape, types[0].element_type), dim, values).result


def _wide(v: ir.Value, n: int) -> ir.Type:
    t = ir.RankedTensorType(v.type)
    return ir.RankedTensorType.get([*t.shape[:-1], n], t.element_type)


def _mixed(shape: list[int], sizes: list[ir.Value]) -> list[int | ir.Value]:
    """`shape` with its dynamic extents the values `sizes`, in order."""
    values = iter(sizes)
    return [next(values) if ir.ShapedType.is_dynamic_size(n) else n for n in shape]


def _head_size(pieces: list[tuple[ir.Value, int]]) -> int | None:
    """The head size d where every use of every piece is a `tensor.expand_shape` that splits its
    last dim alone into [heads, d] (d the same for all, dividing each piece's offset), else None."""
    d = None
    for piece, offset in pieces:
        uses = [u.owner.operation for u in piece.uses]
        if not uses:
            return None
        for op in uses:
            if op.name != "tensor.expand_shape":
                return None
            reassoc = [[ir.IntegerAttr(i).value for i in ir.ArrayAttr(x)] for x in op.attributes["reassociation"]]
            src, dst = ir.RankedTensorType(piece.type), ir.RankedTensorType(op.results[0].type)
            if reassoc[:-1] != [[i] for i in range(src.rank - 1)] or len(reassoc[-1]) != 2 or \
                    d not in (None, dst.shape[-1]) or offset % dst.shape[-1]:
                return None
            d = dst.shape[-1]
    return d


def slice_heads(value: ir.Value, pieces: list[tuple[ir.Value, int]], sizes: list[ir.Value] = ()) -> bool:
    """Where every use of every piece (a part of `value` along its last dim, at the offset given)
    splits it into heads of one size, replaces each split by the slice of `value`'s own head split
    that it is, at the current insertion point, and says so; else changes nothing (`sizes`: the
    values of `value`'s dynamic extents, which its pieces and their splits share). IREE clones
    such a slice into the consumer's dispatch (a load at an offset), where it copies a slice of
    the last dim out in a dispatch of its own."""
    d = _head_size(pieces)
    if d is None:
        return False
    t = ir.RankedTensorType(value.type)
    heads = expand_dim(value, t.rank - 1, t.shape[-1] // d, sizes)
    for piece, offset in pieces:
        for split in [u.owner.operation.results[0] for u in piece.uses]:
            st = ir.RankedTensorType(split.type)
            offsets = [0] * st.rank
            offsets[-2] = offset // d
            split.replace_all_uses_with(
                tensor.ExtractSliceOp(st, heads, [], list(sizes), [], offsets, list(st.shape), [1] * st.rank).result)
            split.owner.erase()
    return True


def last_dim_slices(func: ir.Operation) -> dict[ir.Value, list[tuple[ir.Operation, int]]]:
    """The `tensor.extract_slice`s of `func`'s body that take a static part of their source's last
    dim (all of the others, unit strides; a dynamic one by the very value of its extent:
    `dynamic_extents`), by source: (slice, offset)."""
    found: dict[ir.Value, list[tuple[ir.Operation, int]]] = {}
    for op in func.regions[0].blocks[0].operations:
        op = op.operation
        if op.name != "tensor.extract_slice" or \
                len(op.operands) > 1 and list(op.operands)[1:] != dynamic_extents(op.operands[0]):
            continue
        src = ir.RankedTensorType(op.operands[0].type)
        offsets, sizes, strides = (list(ir.DenseI64ArrayAttr(op.attributes[f"static_{a}"]))
                                   for a in ("offsets", "sizes", "strides"))
        if min(offsets) >= 0 and strides == [1] * src.rank and offsets[:-1] == [0] * (src.rank - 1) and \
                sizes[:-1] == list(src.shape[:-1]) and list(ir.RankedTensorType(op.results[0].type).shape) == sizes:
            found.setdefault(op.operands[0], []).append((op, offsets[-1]))
    return found


def _slice_members(g: Group, value: ir.Value, sizes: list[ir.Value]) -> None:
    """Replaces each member's result by its slice of the wide result `value` along N (or its
    head splits by slices of `value`'s head split: `slice_heads`); `sizes`: the values of the
    dynamic extents they share."""
    offsets = [sum(m.n for m in g.members[:i]) for i in range(len(g.members))]
    if slice_heads(value, [(m.result, o) for m, o in zip(g.members, offsets)], sizes):
        return
    for m, offset in zip(g.members, offsets):
        t = ir.RankedTensorType(m.result.type)
        m.result.replace_all_uses_with(tensor.ExtractSliceOp(
            t, value, [], sizes, [], [0] * (t.rank - 1) + [offset], list(t.shape), [1] * t.rank).result)


def rewrite(g: Group) -> None:
    """One contraction for the group, with the shared consumers; each member's result a slice."""
    m0 = g.members[0]
    lead = m0.op  # the first in the block (`groups` finds them in order)
    order = {o.operation: float(i) for i, o in enumerate(lead.parent.regions[0].blocks[0].operations)}
    width = sum(m.n for m in g.members)
    for m in g.members:
        _hoist(m.op.operands[m.b_at], lead, order)
        for s in m.steps:
            for i in s.along_n:
                _hoist(s.op.operands[i], lead, order)
    with ir.InsertionPoint(lead), lead.location:
        weights = _concat([m.op.operands[m.b_at] for m in g.members], m0.b_n_dim)
        init_t = _wide(m0.op.results[0], width)
        fill = producer(m0.op.operands[2])
        # Every tensor of the chains has the members' leading extents: those of the first one's init.
        sizes = dynamic_dims(m0.op.operands[2])
        empty = tensor.EmptyOp(_mixed(ir.RankedTensorType(init_t).shape, sizes),
                               ir.RankedTensorType(init_t).element_type).result
        init = linalg.fill(fill.operands[0], outs=[empty])
        wide = m0.op.clone()
        wide.operands[m0.b_at] = weights
        wide.operands[2] = init
        wide.results[0].set_type(init_t)
        value = wide.results[0]
        for k, step in enumerate(m0.steps):
            operands = {step.chain_at: value}
            for i, along in step.along_n.items():
                if along:
                    ins = [m.steps[k].op.operands[i] for m in g.members]
                    operands[i] = _concat(ins, ir.RankedTensorType(ins[0].type).rank - 1)
            out_t = ir.RankedTensorType(_wide(step.op.results[0], width))
            operands[len(step.op.operands) - 1] = tensor.EmptyOp(_mixed(out_t.shape, sizes), out_t.element_type).result
            op = step.op.clone()  # after its new operands
            for i, x in operands.items():
                op.operands[i] = x
            op.results[0].set_type(out_t)
            value = op.results[0]
        _slice_members(g, value, sizes)
    for m in g.members:
        for s in reversed(m.steps):
            s.op.erase()
        m.op.erase()
