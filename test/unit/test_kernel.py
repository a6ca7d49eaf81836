"""The kernel builder's instruction helpers, built into a function and verified."""

import pytest
from iree.compiler import ir
from iree.compiler.dialects import arith, func, gpu, scf

from ldsopt.codegen.kernel import L1Prefetch, global_alignment, loop_iterations


@pytest.fixture(autouse=True)
def context():
    with ir.Context(), ir.Location.unknown():
        yield


def _prefetched(memref_type: str) -> str:
    """The IR of one L1Prefetch of element (i, j) of an argument of `memref_type`."""
    module = ir.Module.create()
    index = ir.IndexType.get()
    with ir.InsertionPoint(module.body):
        f = func.FuncOp("f", ([ir.Type.parse(memref_type), index, index], []))
        with ir.InsertionPoint(f.add_entry_block()):
            buf, i, j = f.arguments
            L1Prefetch(buf)([i, j])
            func.ReturnOp([])
    assert module.operation.verify()
    return str(module)


def test_l1_prefetch_of_a_static_memref_uses_constant_byte_strides():
    """64x256 f16: byte offset i * 512 + j * 2 from the aligned pointer, no metadata read."""
    text = _prefetched("memref<64x256xf16>")
    assert "extract_strided_metadata" not in text
    assert "arith.constant 512 : index" in text and "arith.constant 2 : index" in text
    assert 'llvm.inline_asm has_side_effects "prefetch.global.L1 [$0];", "l"' in text
    assert "llvm.inttoptr" in text and "!llvm.ptr<1>" in text


def test_l1_prefetch_of_a_memref_at_a_dynamic_offset_reads_its_metadata():
    """A binding at an offset (contiguous strides, dynamic offset): the offset and strides
    come from memref.extract_strided_metadata, and the pointer is its base buffer's."""
    text = _prefetched("memref<64x256xf16, strided<[256, 1], offset: ?>>")
    assert "memref.extract_strided_metadata" in text
    assert "memref.extract_aligned_pointer_as_index %base_buffer" in text
    assert text.count("prefetch.global.L1") == 1


def test_loop_iterations_counts_nested_loops_and_dynamic_starts():
    """kernel.loop_iterations: a grid-stride loop from a thread id (taken as 0) to 1000 by 7
    runs 143 times, each running an inner loop of 4: 143 * (1 + 4) back edges in all."""
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            f = func.FuncOp("f", ir.FunctionType.get([], []))
        with ir.InsertionPoint(f.add_entry_block()):
            index = ir.IndexType.get()
            c = {n: arith.constant(index, n) for n in (0, 1, 4, 7, 1000)}
            outer = scf.ForOp(gpu.thread_id(gpu.Dimension.x), c[1000], c[7])
            with ir.InsertionPoint(outer.body):
                inner = scf.ForOp(c[0], c[4], c[1])
                with ir.InsertionPoint(inner.body):
                    scf.yield_([])
                scf.yield_([])
            func.ReturnOp([])
        assert loop_iterations(f.regions[0]) == 143 * 5


def _subspan(memref_type: str, alignment: int | None = 64) -> tuple[ir.Module, ir.Value]:
    """A module with a binding subspan of `memref_type` (with `alignment` where given), and
    the subspan's result."""
    module = ir.Module.parse(f"""
      #layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
      func.func @f(%off: index) {{
        %c0 = arith.constant 0 : index
        %0 = hal.interface.binding.subspan layout(#layout) binding(0) {f'alignment({alignment})' if alignment else ''}
             offset({'%off' if 'offset: ?' in memref_type else '%c0'}) : {memref_type}
        return
      }}""")
    op = next(o for o in module.body.operations[0].regions[0].blocks[0].operations
              if o.operation.name == "hal.interface.binding.subspan")
    return module, op.results[0]


@pytest.mark.parametrize("memref_type, n, backend, expected", [
    ("memref<512x768xf16>", 2, "cuda", 4),       # a row of 1536 bytes: the access size bounds it
    ("memref<512x768xf16>", 8, "cuda", 16),
    ("memref<512x70xf16>", 4, "cuda", 4),        # rows of 140 bytes: 4
    ("memref<3x512x64xf32>", 4, "rocm", 16),
    ("memref<512x768xf16>", 2, "vulkan", 0),     # SPIR-V: transfers, no alignment stated
    ("memref<512x768xf16>", 1, "cuda", 0),       # a scalar
    ("memref<f32>", 2, "cuda", 0),               # 0-d: nothing along N
    ("memref<512x768xf16, strided<[768, 1], offset: ?>>", 2, "cuda", 0),  # an offset not known
])
def test_global_alignment(memref_type, n, backend, expected):
    _, buf = _subspan(memref_type)
    assert global_alignment(buf, n, backend) == expected


def test_global_alignment_needs_the_binding_alignment():
    """Bounded by the binding's alignment; nothing stated where only an element's own holds."""
    for alignment, expected in ((None, 0), (2, 0), (4, 4)):
        _, buf = _subspan("memref<512x768xf16>", alignment)
        assert global_alignment(buf, 8, "cuda") == expected


def _view_of(text: str) -> ir.Value:
    module = ir.Module.parse(text)
    ops = list(module.body.operations[0].regions[0].blocks[0].operations)
    return module, next(o for o in reversed(ops) if o.operation.name in ("memref.subview", "memref.collapse_shape")).results[0]


@pytest.mark.parametrize("offset, at, width, collapse, expected", [
    (896, 0, 16, True, 16),    # eager BERT's K: 896 bytes in, then 32 floats: 16-byte vectors
    (900, 0, 16, True, 0),     # a binding 900 bytes in: an element's alignment only, none stated
    (0, 3, 12, False, 0),      # a slice 35 floats in: likewise
    (0, 2, 12, False, 8),      # 34 floats in: 8 bytes
])
def test_global_alignment_of_a_slice(offset, at, width, collapse, expected):
    """A subview of a binding at a constant offset (collapsed, or not): the binding's start, its
    offset, the slice's and the rows' strides all bound the alignment of a vector<4xf32>."""
    sub = f"memref<7x2x{width}xf32, strided<[96, 16, 1], offset: ?>>"
    collapsed = f"""%2 = memref.collapse_shape %1 [[0], [1, 2]] : {sub} into memref<7x32xf32, strided<[96, 1], offset: ?>>""" \
        if collapse else ""
    _, buf = _view_of(f"""
      #layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>]>
      func.func @f() {{
        %c = arith.constant {offset} : index
        %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c)
             : memref<1x7x6x16xf32, strided<[672, 96, 16, 1], offset: ?>>
        %1 = memref.subview %0[0, 0, 2, {at}] [1, 7, 2, {width}] [1, 1, 1, 1]
             : memref<1x7x6x16xf32, strided<[672, 96, 16, 1], offset: ?>> to {sub}
        {collapsed}
        return
      }}""")
    assert global_alignment(buf, 4, "cuda") == expected


@pytest.mark.parametrize("assumptions, expected", [
    ("[<umin = 0, umax = 1024, udiv = 128>]", 16),                      # 128 bytes: the access bounds it
    ("[<umin = 786432, umax = 786432, udiv = 786432>, <umin = 0, umax = 0>]", 16),  # two call sites, one at 0
    ("[<umin = 0, umax = 1024, udiv = 128>, <umin = 0, umax = 1024, udiv = 8>]", 8),  # the gcd of the sites'
    ("[<umin = 0, umax = 9007199254740991>]", 0),                      # no divisor stated: an element's only
])
def test_global_alignment_of_a_binding_at_an_assumed_offset(assumptions, expected):
    """A binding at an offset read at run time: what IREE's util.assume.int states it a multiple of."""
    _, buf = _view_of(f"""
      #layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer>]>
      func.func @f() {{
        %0 = hal.interface.constant.load layout(#layout) ordinal(0) : i32
        %1 = arith.index_castui %0 : i32 to index
        %2 = util.assume.int %1{assumptions} : index
        %3 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%2)
             : memref<64x32xf32, strided<[32, 1], offset: ?>>
        %4 = memref.subview %3[0, 0] [64, 32] [1, 1] : memref<64x32xf32, strided<[32, 1], offset: ?>>
             to memref<64x32xf32, strided<[32, 1], offset: ?>>
        return
      }}""")
    assert global_alignment(buf, 4, "cuda") == expected
