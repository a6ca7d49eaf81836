// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds)' | filecheck %s

// A 1x1 convolution (NCHW) whose result IREE stores into the interior of the padded tensor the
// next convolution reads (the pad fused into the dispatch): rows of 4 at column 1 of rows 6
// long, element 7 + 6 h of each channel. No vector store along a row is aligned to its size
// there (SPIR-V stored them at the wrong place, CUDA faults): the output's vectors are no
// wider than its rows' starts are aligned to (`Binding.aligned_run`).
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>]>
// CHECK-LABEL: func.func @odd_column
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[O:.+]] = memref.subview %{{.+}}[0, 1, 1] [64, 4, 4] [1, 1, 1]
// CHECK:         vector.transfer_write %{{.+}}, %[[O]]{{.+}} : vector<1xf32>, memref<64x4x4xf32, strided<[36, 6, 1], offset: 7>
// CHECK-NOT:     offset: 7>, #hal.descriptor_type<storage_buffer>>, vector<{{[248]}}xf32>
// CHECK-NOT:     vector<{{[248]}}xf32>, memref<64x4x4xf32, strided<[36, 6, 1], offset: 7>
func.func @odd_column() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x4x4xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x32xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x6x6xf32, #hal.descriptor_type<storage_buffer>>
  %sv = memref.subview %2[0, 1, 1] [64, 4, 4] [1, 1, 1] : memref<64x6x6xf32, #hal.descriptor_type<storage_buffer>> to memref<64x4x4xf32, strided<[36, 6, 1], offset: 7>, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<32x4x4xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32x4x4xf32>
  %w = iree_codegen.load_from_buffer %1 : memref<64x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x32xf32>
  %e = tensor.empty() : tensor<64x4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x4x4xf32>) -> tensor<64x4x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<32x4x4xf32>, tensor<64x32xf32>) outs(%f : tensor<64x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x4x4xf32>
  iree_codegen.store_to_buffer %m, %sv : tensor<64x4x4xf32> into memref<64x4x4xf32, strided<[36, 6, 1], offset: 7>, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// The same product stored at column 0 of the rows 6 long: row h starts at element 6 h, even,
// so stores of 2 (not of 4: an odd row starts 8 bytes past a 16-byte boundary).
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>]>
// CHECK-LABEL: func.func @even_rows
// CHECK:         vector.store %{{.+}} alignment = 8 : memref<64x4x4xf32, strided<[36, 6, 1]>, #hal.descriptor_type<storage_buffer>>, vector<2xf32>
// CHECK-NOT:     strided<[36, 6, 1]>, #hal.descriptor_type<storage_buffer>>, vector<{{[48]}}xf32>
func.func @even_rows() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x4x4xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x32xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x6x6xf32, #hal.descriptor_type<storage_buffer>>
  %sv = memref.subview %2[0, 0, 0] [64, 4, 4] [1, 1, 1] : memref<64x6x6xf32, #hal.descriptor_type<storage_buffer>> to memref<64x4x4xf32, strided<[36, 6, 1]>, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<32x4x4xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32x4x4xf32>
  %w = iree_codegen.load_from_buffer %1 : memref<64x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x32xf32>
  %e = tensor.empty() : tensor<64x4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x4x4xf32>) -> tensor<64x4x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<32x4x4xf32>, tensor<64x32xf32>) outs(%f : tensor<64x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x4x4xf32>
  iree_codegen.store_to_buffer %m, %sv : tensor<64x4x4xf32> into memref<64x4x4xf32, strided<[36, 6, 1]>, #hal.descriptor_type<storage_buffer>>
  return
}
