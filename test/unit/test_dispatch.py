"""ldsopt.codegen.dispatch: static slices of a binding (`analyze_graph(slices=True)`), as IREE
3.13 forms a packed QKV's Q, K and V, in Vulkan's spelling (a dispatch.tensor.load of offsets
and sizes, dropping unit dims) and CUDA's (a memref.subview loaded whole)."""

import pytest
from iree.compiler import ir

from ldsopt.codegen import dispatch

LAYOUT = ('#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, '
          '#hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>')


def vulkan(offsets: str, strides: str = "1, 1, 1, 1", inner: int = 8) -> str:
    """A copy of a [2, 5, inner] slice of a [3, 2, 5, 8] binding at `offsets` by `strides`."""
    return f"""
func.func @f() {{
  %c64 = arith.constant 64 : index
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout({LAYOUT}) binding(0) alignment(64) offset(%c64) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x2x5x8xf32>>
  %1 = hal.interface.binding.subspan layout({LAYOUT}) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x5x{inner}xf32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [{offsets}], sizes = [1, 2, 5, {inner}], strides = [{strides}] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x2x5x8xf32>> -> tensor<2x5x{inner}xf32>
  %3 = linalg.generic {{indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%2 : tensor<2x5x{inner}xf32>) outs(%2 : tensor<2x5x{inner}xf32>) {{
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }} -> tensor<2x5x{inner}xf32>
  iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0, 0, 0], sizes = [2, 5, {inner}], strides = [1, 1, 1] : tensor<2x5x{inner}xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x5x{inner}xf32>>
  return
}}"""


def parse(text: str):
    module = ir.Module.parse(text)
    return module, next(op.operation for op in module.body.operations)


@pytest.mark.parametrize("sizes,shape,kept", [([1, 2, 5, 8], [2, 5, 8], [1, 2, 3]), ([1, 1, 8], [1, 8], [0, 2]),
                                              ([2, 5, 8], [2, 5, 8], [0, 1, 2]), ([1, 2, 5, 8], [2, 8], None)])
def test_kept_dims_reduce_a_rank_as_mlir_does(sizes, shape, kept):
    assert dispatch._kept_dims(sizes, shape) == kept


def test_a_static_slice_is_a_binding_read_through_a_subview():
    with ir.Context(), ir.Location.unknown():
        module, func = parse(vulkan("1, 0, 0, 0"))
        assert not dispatch.analyze_graph(func, ("linalg.generic",))  # a pass that does not ask refuses it
        g = dispatch.analyze_graph(func, ("linalg.generic",), slices=True)
        assert g, g
        (_, b), = g.loads
        assert dispatch.slice_layout(b) == (80, [40, 8, 1])  # elements, from the binding's start
        view = b.memref()
        assert view.owner.name == "memref.subview"
        assert str(view.type) == ("memref<2x5x8xf32, strided<[40, 8, 1], offset: ?>, "
                                  "#hal.descriptor_type<storage_buffer>>")
        assert module.operation.verify()


def test_a_strided_slice_is_refused_with_why():
    with ir.Context(), ir.Location.unknown():
        _, func = parse(vulkan("0, 0, 0, 0", "1, 1, 1, 2", inner=4))
        found = dispatch.analyze_graph(func, ("linalg.generic",), slices=True)
        assert not found and ("not of static offsets, unit strides and sizes static or computed from the "
                              "dispatch's workload") in found.reason


def vulkan_store(offsets: str) -> str:
    """A copy of a [2, 5, 8] binding into the [2, 5, 8] slice at `offsets` of a [2, 7, 10] one
    (a result written into the padded buffer of the next convolution)."""
    return f"""
func.func @f() {{
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout({LAYOUT}) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x5x8xf32>>
  %1 = hal.interface.binding.subspan layout({LAYOUT}) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x7x10xf32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [2, 5, 8], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x5x8xf32>> -> tensor<2x5x8xf32>
  %3 = linalg.generic {{indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]}} ins(%2 : tensor<2x5x8xf32>) outs(%2 : tensor<2x5x8xf32>) {{
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }} -> tensor<2x5x8xf32>
  iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [{offsets}], sizes = [2, 5, 8], strides = [1, 1, 1] : tensor<2x5x8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2x7x10xf32>>
  return
}}"""


def test_a_store_into_a_static_slice_is_taken_where_asked():
    with ir.Context(), ir.Location.unknown():
        module, func = parse(vulkan_store("0, 1, 1"))
        assert "writes part of a binding" in dispatch.analyze_graph(func, ("linalg.generic",)).reason
        g = dispatch.analyze_graph(func, ("linalg.generic",), out_slices=True)
        assert g, g
        (_, b), = g.stores
        assert dispatch.slice_layout(b) == (11, [70, 10, 1])
        assert b.memref().owner.name == "memref.subview"
        assert module.operation.verify()
        # Past the bound tensor's end: not a slice of it.
        _, func = parse(vulkan_store("0, 3, 3"))
        assert not dispatch.analyze_graph(func, ("linalg.generic",), out_slices=True)


def vulkan_strided(sizes: str, result: str) -> str:
    """A copy of the slice of `sizes` at offsets [0, 1, 0, 1], strides [1, 1, 2, 2], of a
    [3, 2, 5, 8] binding, loaded as a `result` tensor."""
    return f"""
func.func @f() {{
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout({LAYOUT}) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x2x5x8xf32>>
  %1 = hal.interface.binding.subspan layout({LAYOUT}) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<{result}xf32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 1, 0, 1], sizes = [{sizes}], strides = [1, 1, 2, 2] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x2x5x8xf32>> -> tensor<{result}xf32>
  iree_tensor_ext.dispatch.tensor.store %2, %1, offsets = [0, 0, 0, 0], sizes = [{sizes}], strides = [1, 1, 1, 1] : tensor<{result}xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<{result}xf32>>
  return
}}"""


def test_a_strided_slice_is_the_whole_binding_where_asked():
    """`strided_load`: a slice with strides (a 1x1 stride-2 convolution's image) is a `Strided`
    binding of the whole bound tensor, its offsets and strides for the reader to fold into its
    indices; past the bound tensor, or dropping a dim, it is none."""
    with ir.Context(), ir.Location.unknown():
        module, func = parse(vulkan_strided("3, 1, 3, 4", "3x1x3x4"))
        load = [op.operation for op in func.regions[0].blocks[0].operations
                if op.operation.name == "iree_tensor_ext.dispatch.tensor.load"][0]
        b = dispatch.strided_load(load)
        assert isinstance(b, dispatch.Strided) and (b.offsets, b.strides) == ((0, 1, 0, 1), (1, 1, 2, 2))
        assert str(b.tensor_type) == "tensor<3x2x5x8xf32>"
        assert str(b.memref().type) == "memref<3x2x5x8xf32, #hal.descriptor_type<storage_buffer>>"
        _, func = parse(vulkan_strided("3, 1, 3, 5", "3x1x3x5"))  # column 1 + 4 * 2 = 9 is past 8
        load = [op.operation for op in func.regions[0].blocks[0].operations
                if op.operation.name == "iree_tensor_ext.dispatch.tensor.load"][0]
        assert dispatch.strided_load(load) is None


def test_a_strided_slice_in_cuda_spelling():
    """CUDA/HIP: IREE's memref.subview with strides, loaded whole, is the same Strided binding
    (outside any location context: the tools analyze dispatches without one)."""
    text = f"""
func.func @f() {{
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout({LAYOUT}) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x13x9x11xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout({LAYOUT}) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x13x5x6xf32, #hal.descriptor_type<storage_buffer>>
  %sv = memref.subview %0[0, 0, 0, 0] [2, 13, 5, 6] [1, 1, 2, 2] : memref<2x13x9x11xf32, #hal.descriptor_type<storage_buffer>> to memref<2x13x5x6xf32, strided<[1287, 99, 22, 2]>, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %sv : memref<2x13x5x6xf32, strided<[1287, 99, 22, 2]>, #hal.descriptor_type<storage_buffer>> -> tensor<2x13x5x6xf32>
  iree_codegen.store_to_buffer %2, %1 : tensor<2x13x5x6xf32> into memref<2x13x5x6xf32, #hal.descriptor_type<storage_buffer>>
  return
}}"""
    with ir.Context():
        module = ir.Module.parse(text)
        func = next(op.operation for op in module.body.operations)
        assert not dispatch.analyze_graph(func, ("linalg.generic",), strided=False)
        load = [op.operation for op in func.regions[0].blocks[0].operations
                if op.operation.name == "iree_codegen.load_from_buffer"][0]
        b = dispatch.strided_load(load)
        assert isinstance(b, dispatch.Strided) and (b.offsets, b.strides) == ((0, 0, 0, 0), (1, 1, 2, 2))
        assert str(b.tensor_type) == "tensor<2x13x9x11xf32>" and b.memref() == func.regions[0].blocks[0].operations[1].result
