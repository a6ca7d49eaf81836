"""The kernel builder's instruction helpers, built into a function and verified."""

import pytest
from iree.compiler import ir
from iree.compiler.dialects import func

from ldsopt.kernel import L1Prefetch


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
