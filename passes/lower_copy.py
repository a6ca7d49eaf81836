"""ldsopt-lower-copy: IREE's copy dispatches (`slow_memcpy`) to a coalesced vector copy.

Matches the dispatches IREE makes of a copy between bindings (`BufferizeCopyOnlyDispatches`:
a `tensor.pad`'s image written into its zero buffer, a slice read out of a tensor, an
`insert_slice` into one): already on memrefs, one `linalg.generic` with identity maps whose
body yields its input (or a `linalg.copy`) from one memref to another, each a binding
(through `memref.assume_alignment`, and on HIP `amdgpu.fat_raw_buffer_cast`) or one
`memref.subview` of one, of static strides (but in dims of extent 1, whose stride moves
nothing: an export's 1x?xN binding) and static or dynamic offsets. A dynamic
offset is an index the dispatch computes before the copy (IREE loads it from a binding for a
`tensor.extract` of an index tensor); those ops stay as they are. Sizes may be dynamic but for
the innermost (`lds-run --keep-dynamic`: a fused projection's Split over a dynamic sequence),
each computed from the dispatch's workload ordinals: the copy's count of rows is then read at
run time, in the kernel and in its workgroup count.

The kernel:
- collapses runs of dims that are contiguous in both views (a 2x3x29x29 NCHW image into
  its 2x3x35x35 padded buffer is copied as [6, 29, 29]: 6 images of 29 rows);
- copies each row in vectors of V elements from its start, V the widest power of two within
  the target's widest access (16 bytes; 4 elements on SPIR-V) at which every row starts
  aligned in both views: V divides both views' row strides, their offsets from the binding
  and the bindings' alignment (of an offset read at run time, what IREE's `util.assume.int`
  states it a multiple of); the row's last `n mod V` elements are copied as scalars. An
  innermost stride above 1 (a strided slice) or views whose rows are not aligned alike (an
  NCHW image of 29-wide rows into 35-wide rows) copy scalars;
- a grid-stride loop gives each thread one vector a step, consecutive threads consecutive
  vectors of a row (coalesced reads and writes); the tails in a second loop;
- with dynamic offsets, whether they keep the rows aligned is known at run time: the vector
  plan runs under an `scf.if` that checks it, the scalar copy otherwise;
- on CUDA/HIP each vector access states its alignment (`vector.load/store {alignment}`),
  which the plan proves, so that LLVM does not split it.

Left to IREE, with a remark: a copy that converts (a body other than the yield of its
input), permutes or broadcasts (maps that are not identities), any other op in the dispatch,
dynamic strides of dims longer than 1, a dynamic innermost size or one not computed from the workload, a view that
is not a binding or one subview of one, a copy of one element (rank 0) or none, and element
types that are not whole bytes or that the target does not compute natively.
"""

from __future__ import annotations

import dataclasses
import functools
import math

from iree.compiler import ir
from iree.compiler.dialects import arith, memref, scf

from ldsopt import target as target_model
from ldsopt.codegen.binding_view import CASTS, BindingView, binding_view
from ldsopt.codegen.dispatch import subspan_dims
from ldsopt.codegen.workload import from_workload, in_count_region
from ldsopt.codegen.elementwise import collapsed_view, extent_product, group_extents
from ldsopt.codegen.kernel import (GridStridePass, Kernel, ceil_div, launch_count, matched_dispatches,
                                  natively_computed, read_vector, write_vector)
from ldsopt.ir_types import element_bits
from ldsopt.remarks import Unmatched

# What a copy dispatch computes besides the copy: its bindings and their views, and the
# scalars a dynamic offset is made of (a loaded index, push constants and their casts).
_SETUP = ("arith.constant", "hal.interface.binding.subspan", "memref.assume_alignment", "amdgpu.fat_raw_buffer_cast",
          "memref.subview", "memref.load", "hal.interface.constant.load", "arith.index_cast", "arith.index_castui",
          "arith.extui", "arith.extsi", "arith.shli", "arith.ori", "arith.addi", "arith.muli",
          "util.assume.int", "affine.apply", "iree_tensor_ext.dispatch.workload.ordinal")
# How a dispatch that computes on tensors reads and writes its bindings.
_TENSOR_IO = ("iree_codegen.load_from_buffer", "iree_codegen.store_to_buffer", "iree_tensor_ext.dispatch.tensor.load",
              "iree_tensor_ext.dispatch.tensor.store")


@dataclasses.dataclass
class Copy:
    func: ir.Operation
    root: ir.Operation
    source: BindingView
    dest: BindingView
    body_ops: list[ir.Operation]
    extents: dict[int, ir.Value] = dataclasses.field(default_factory=dict)  # dynamic dim -> its size

    @property
    def location(self) -> ir.Location:
        return self.root.location


def _is_copy(root: ir.Operation) -> bool:
    """A memref linalg.copy, or a memref generic of identity maps whose body yields its input."""
    if root.name == "linalg.copy":
        return True
    maps = [ir.AffineMapAttr(a).value for a in root.attributes["indexing_maps"]]
    if len(maps) != 2 or any(m != ir.AffineMap.get_identity(m.n_dims) for m in maps) or \
            any("parallel" not in str(it) for it in root.attributes["iterator_types"]):
        return False
    block = root.regions[0].blocks[0]
    ops = list(block.operations)
    return len(ops) == 1 and ops[0].operation.name == "linalg.yield" and ops[0].operands[0] == block.arguments[0]


def copy_dispatch(func: ir.Operation, roots: tuple[str, ...]) -> Copy | Unmatched:
    """Matches a dispatch that is one copy (`_is_copy`) between views of bindings."""
    ops = [o.operation for o in func.regions[0].blocks[0].operations][:-1]
    if any(op.name in _TENSOR_IO for op in ops):
        return Unmatched("computes on tensors (loads and stores of bindings): not one of IREE's copy dispatches, "
                         "which are on memrefs")
    found = [op for op in ops if op.name in roots]
    other = next((op.name for op in ops if op.name not in roots and op.name not in _SETUP), None)
    if other is not None:
        return Unmatched(f"computes with {other}; this pass takes a copy (linalg.generic yielding its input, or "
                         "linalg.copy) between views of bindings")
    if len(found) != 1:
        return Unmatched(f"{len(found)} copies in one dispatch; this pass takes one" if found else "no copy")
    root = found[0]
    if root.results or not all(isinstance(v.type, ir.MemRefType) for v in root.operands):
        return Unmatched(f"{root.name} on tensors, not on memrefs")
    if not _is_copy(root):
        return Unmatched("not a plain copy: its maps are not identities or its body computes")
    source, dest = (binding_view(v) for v in root.operands)
    if not source or not dest:
        return dest if source else source  # the refusal (an Unmatched is false)
    extents = _dynamic_sizes(root.operands[0])
    if isinstance(extents, Unmatched):
        return extents
    return Copy(func, root, source, dest, ops, extents)


def _dynamic_sizes(view: ir.Value) -> dict[int, ir.Value] | Unmatched:
    """The copy's dynamic dims (those of its source `view`) and their sizes: a subview's
    dynamic size operands, or the binding's declared dims; each from the workload."""
    shape = ir.MemRefType(view.type).shape
    dynamic = [i for i, n in enumerate(shape) if ir.ShapedType.is_dynamic_size(n)]
    if not dynamic:
        return {}
    if dynamic[-1] == len(shape) - 1:
        return Unmatched("a dynamic row length (the innermost size); this pass takes dynamic outer sizes")
    while isinstance(view, ir.OpResult) and view.owner.name in CASTS:
        view = view.owner.operands[0]
    sizes = subspan_dims(view) or []
    if len(sizes) != len(dynamic) or not all(map(from_workload, sizes)):
        return Unmatched("a dynamic size not computed from the dispatch's workload ordinals")
    return dict(zip(dynamic, sizes))


def _match(c: Copy) -> Copy | Unmatched:
    mtype = ir.MemRefType(c.source.value.type)
    if mtype.rank == 0 or 0 in mtype.shape:
        return Unmatched("a copy of one element or none: nothing to vectorize or distribute")
    bits = element_bits(mtype.element_type)
    if bits % 8:
        return Unmatched(f"copies {bits}-bit elements; this pass copies whole bytes")
    return c


@dataclasses.dataclass(frozen=True)
class LowerCopy(GridStridePass):
    NAME = "ldsopt-lower-copy"
    SUMMARY = "Lower IREE's copy dispatches (pads, slices, updates) to coalesced copies in aligned vectors"

    def run(self, module: ir.Operation) -> None:
        matches = matched_dispatches(module, ("linalg.generic", "linalg.copy"), _match, self, copy_dispatch)
        for c, _, tgt in natively_computed(matches, lambda c: [c.root], self.NAME):
            self._lower(c, tgt)

    def _lower(self, c: Copy, tgt: target_model.Target) -> None:
        shape = list(ir.MemRefType(c.source.value.type).shape)
        etype = ir.MemRefType(c.source.value.type).element_type
        groups = contiguous_groups(shape, [c.source.strides, c.dest.strides])
        # a dynamic group counts as more than one row (its rows' starts must all be aligned)
        cshape = [math.prod(shape[i] for i in g) if not any(i in c.extents for i in g) else 2 for g in groups]
        v = vector_width(c.source, c.dest, groups, cshape, element_bits(etype), tgt)
        wg = self.workgroup_size
        if c.extents:  # the rows counted at run time: `grid_limit` a bound of the workgroups
            n_wg = self.grid_limit(tgt)
            per_row = cshape[-1] // v if v > 1 else cshape[-1]  # the row is static (`_dynamic_sizes`)
            k = Kernel(c, tgt, (wg, 1, 1), (n_wg, 1, 1), lambda workload: self._workload_grid(
                c, shape, groups, workload, per_row, n_wg))
        else:
            items = math.prod(cshape[:-1]) * (cshape[-1] // v if v > 1 else cshape[-1])
            n_wg = self.workgroups(items, tgt)
            k = Kernel(c, tgt, (wg, 1, 1), (n_wg, 1, 1))
        with k.ip, c.location:
            if c.extents:
                cshape = group_extents(shape, groups, c.extents, k.const)
            src, dst = (collapsed_view(view.value, groups, shape) for view in (c.source, c.dest))
            start = arith.addi(arith.muli(k.block_id(), k.const(wg)), k.thread_id())
            step = arith.muli(k.grid_dim(), k.const(wg)) if c.extents else k.const(n_wg * wg)
            aligned = _dynamic_alignment(k, [c.source, c.dest], v)
            if aligned is None:
                _rows(k, src, dst, cshape, v, start, step)
            else:
                branch = scf.IfOp(aligned, [], has_else=True)
                for block, width in ((branch.then_block, v), (branch.else_block, 1)):
                    with ir.InsertionPoint(block):
                        _rows(k, src, dst, cshape, width, start, step)
                        scf.yield_([])
        k.finish(self.NAME)

    def _workload_grid(self, c: Copy, shape: list[int], groups: list[list[int]], workload: list[ir.Value],
                       per_row: int, most: int) -> list[ir.Value]:
        """The workgroup count of a copy of dynamic sizes, from the count region's `workload`:
        a thread a vector of its rows (`per_row` a row), at most `most` workgroups."""
        const = functools.cache(lambda value: arith.constant(ir.IndexType.get(), value))
        extents = {i: in_count_region(v, workload) for i, v in c.extents.items()}
        items = extent_product([*group_extents(shape, groups, extents, const)[:-1], per_row], const)
        return [launch_count(ceil_div(items, self.workgroup_size, const), most, const), const(1), const(1)]


def contiguous_groups(shape: list[int], strides: list[list[int]]) -> list[list[int]]:
    """Runs of consecutive dims that are one contiguous run in every view of `strides`; a
    dynamic dim stays a group of its own (the row, the last group, is then static)."""
    dynamic = ir.ShapedType.is_dynamic_size
    groups: list[list[int]] = []
    for d in range(len(shape)):
        if groups and not dynamic(shape[d]) and not dynamic(shape[d - 1]) and \
                all(s[d - 1] == s[d] * shape[d] for s in strides):
            groups[-1].append(d)
        else:
            groups.append([d])
    return groups


def vector_width(source: BindingView, dest: BindingView, groups: list[list[int]], cshape: list[int], bits: int,
                 tgt: target_model.Target) -> int:
    """Elements a vector of the copy moves: the widest power of two within the target's widest
    access and the row (`cshape`: the extents of the collapsed `groups`), at which every row of
    both views starts aligned (the dynamic offsets checked at run time); 1 where the innermost
    stride of a view is not 1."""
    if source.strides[-1] != 1 or dest.strides[-1] != 1:
        return 1
    elem = bits // 8
    v = min(tgt.vector_elems(bits), 1 << (cshape[-1].bit_length() - 1))
    for view in (source, dest):
        outer = [view.strides[g[-1]] for g, n in zip(groups[:-1], cshape) if n > 1]
        v = math.gcd(v, view.offset, *outer, view.base_align // elem if view.base_align % elem == 0 else 1)
    return v & -v  # the largest power of two that divides it


def _dynamic_alignment(k: Kernel, views: list[BindingView], v: int) -> ir.Value | None:
    """An i1 true where the views' dynamic offsets keep their rows aligned to `v` elements;
    None where there are none to check (or `v` is 1)."""
    if v == 1:
        return None
    cond = None
    for view in views:
        for value, stride in view.dynamic:
            need = v // math.gcd(v, stride)  # value * stride must be a multiple of v
            if need == 1:
                continue
            ok = arith.cmpi(arith.CmpIPredicate.eq, arith.remui(value, k.const(need)), k.const(0))
            cond = ok if cond is None else arith.andi(cond, ok)
    return cond


def _rows(k: Kernel, src: ir.Value, dst: ir.Value, cshape: list, v: int, start: ir.Value,
          step: ir.Value) -> None:
    """The copy of collapsed views of `cshape` (ints, index values where dynamic; the row
    static) in vectors of `v` from each row's start (a grid-stride loop over them), then each
    row's last `row mod v` elements as scalars."""
    row = cshape[-1]
    chunks, tail = (row // v, row % v) if v > 1 else (row, 0)
    etype = ir.MemRefType(src.type).element_type
    align = v * element_bits(etype) // 8 if k.target.backend != "vulkan" else 0
    for count, width, first in ((chunks, v, 0), (tail, 1, chunks * v)):
        if count == 0:
            continue
        loop = scf.ForOp(start, extent_product([*cshape[:-1], count], k.const), step)
        with ir.InsertionPoint(loop.body):
            idx = k.delinearize(loop.induction_variable, [*cshape[:-1], count])
            col = idx[-1] if width == 1 else arith.muli(idx[-1], k.const(width))
            at = [*idx[:-1], col if first == 0 else arith.addi(col, k.const(first))]
            if width == 1:
                memref.store(memref.load(src, at), dst, at)
            else:
                vtype = ir.VectorType.get([width], etype)
                write_vector(read_vector(vtype, src, at, align), dst, at, align)
            scf.yield_([])
