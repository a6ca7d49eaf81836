// What ldsopt-attention leaves to IREE, with the reason as a remark at the attention op.
// RUN: lds-opt %s --split-input-file --verify-diagnostics --remarks=missed --target=cuda --pass-pipeline='builtin.module(ldsopt-attention)'

// Q stored with its rows innermost (the head dim strided): the kernel reads Q, K and V in vectors
// along their head dims.
// PLAIN
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @q_transposed() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 1.250000e-01 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x64x80xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<6x80x64xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<6x64x80xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x64x80xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<6x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x100x64xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<6x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x100x64xf16>
  %7 = tensor.empty() : tensor<6x80x64xf16>
  %8 = tensor.empty() : tensor<6x80x64xf32>
  %9 = tensor.empty() : tensor<6x80xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<6x80x64xf32>) -> tensor<6x80x64xf32>
  %11 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<6x80xf32>) -> tensor<6x80xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<6x80xf32>) -> tensor<6x80xf32>
  // expected-remark @+1 {{ldsopt-attention: left to IREE: Q does not have its head dim innermost (contiguous)}}
  %13:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%4, %5, %6, %cst_2 : tensor<6x64x80xf16>, tensor<6x100x64xf16>, tensor<6x100x64xf16>, f16) outs(%10, %11, %12 : tensor<6x80x64xf32>, tensor<6x80xf32>, tensor<6x80xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<6x80x64xf32>, tensor<6x80xf32>, tensor<6x80xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13#2, %13#0 : tensor<6x80xf32>, tensor<6x80x64xf32>) outs(%7 : tensor<6x80x64xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_3 : f32
    %17 = arith.truncf %16 : f32 to f16
    linalg.yield %17 : f16
  } -> tensor<6x80x64xf16>
  iree_codegen.store_to_buffer %14, %3 : tensor<6x80x64xf16> into memref<6x80x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A consumer fused after the normalization (here x + x): the kernel stores the normalized output.
// PLAIN
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @fused_consumer() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 1.250000e-01 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x80x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<6x80x64xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<6x80x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x80x64xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<6x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x100x64xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<6x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x100x64xf16>
  %7 = tensor.empty() : tensor<6x80x64xf16>
  %8 = tensor.empty() : tensor<6x80x64xf32>
  %9 = tensor.empty() : tensor<6x80xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<6x80x64xf32>) -> tensor<6x80x64xf32>
  %11 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<6x80xf32>) -> tensor<6x80xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<6x80xf32>) -> tensor<6x80xf32>
  // expected-remark @+1 {{ldsopt-attention: left to IREE: the normalized attention is consumed by a generic other than a copy in another dim order}}
  %13:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%4, %5, %6, %cst_2 : tensor<6x80x64xf16>, tensor<6x100x64xf16>, tensor<6x100x64xf16>, f16) outs(%10, %11, %12 : tensor<6x80x64xf32>, tensor<6x80xf32>, tensor<6x80xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<6x80x64xf32>, tensor<6x80xf32>, tensor<6x80xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13#2, %13#0 : tensor<6x80xf32>, tensor<6x80x64xf32>) outs(%7 : tensor<6x80x64xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_3 : f32
    %17 = arith.truncf %16 : f32 to f16
    linalg.yield %17 : f16
  } -> tensor<6x80x64xf16>
  %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14 : tensor<6x80x64xf16>) outs(%7 : tensor<6x80x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %19 = arith.addf %in, %in : f16
    linalg.yield %19 : f16
  } -> tensor<6x80x64xf16>
  iree_codegen.store_to_buffer %18, %3 : tensor<6x80x64xf16> into memref<6x80x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}
// -----

// Q, K and V slices whose rows start one element into rows of 9 (f32): the kernels read rows
// in 16-byte vectors, which such rows do not align to.
func.func @slice_misaligned() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %c2560 = arith.constant 2560 : index
  %cst_2 = arith.constant 0.353553385 : f32
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c2560) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5x2x2x9xf32>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<5x2x2x8xf32>>
  %2 = tensor.empty() : tensor<5x2x2x8xf32>
  %3 = tensor.empty() : tensor<2x2x5x8xf32>
  %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [2, 0, 0, 0, 1], sizes = [1, 5, 2, 2, 8], strides = [1, 1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5x2x2x9xf32>> -> tensor<5x2x2x8xf32>
  %5 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [1, 0, 0, 0, 1], sizes = [1, 5, 2, 2, 8], strides = [1, 1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5x2x2x9xf32>> -> tensor<5x2x2x8xf32>
  %6 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0, 0, 1], sizes = [1, 5, 2, 2, 8], strides = [1, 1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5x2x2x9xf32>> -> tensor<5x2x2x8xf32>
  %7 = tensor.empty() : tensor<2x2x5x8xf32>
  %8 = tensor.empty() : tensor<2x2x5xf32>
  %9 = linalg.fill ins(%cst_1 : f32) outs(%7 : tensor<2x2x5x8xf32>) -> tensor<2x2x5x8xf32>
  %10 = linalg.fill ins(%cst_0 : f32) outs(%8 : tensor<2x2x5xf32>) -> tensor<2x2x5xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<2x2x5xf32>) -> tensor<2x2x5xf32>
  // expected-remark @+1 {{ldsopt-attention: left to IREE: Q is a slice whose offset or row strides are not multiples of the vectors its rows are read in}}
  %12:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>]> ins(%6, %5, %4, %cst_2 : tensor<5x2x2x8xf32>, tensor<5x2x2x8xf32>, tensor<5x2x2x8xf32>, f32) outs(%9, %10, %11 : tensor<2x2x5x8xf32>, tensor<2x2x5xf32>, tensor<2x2x5xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x2x5x8xf32>, tensor<2x2x5xf32>, tensor<2x2x5xf32>
  %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12#2, %12#0 : tensor<2x2x5xf32>, tensor<2x2x5x8xf32>) outs(%3 : tensor<2x2x5x8xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_3 : f32
    linalg.yield %16 : f32
  } -> tensor<2x2x5x8xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d1, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<2x2x5x8xf32>) outs(%2 : tensor<5x2x2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<5x2x2x8xf32>
  iree_tensor_ext.dispatch.tensor.store %14, %1, offsets = [0, 0, 0, 0], sizes = [5, 2, 2, 8], strides = [1, 1, 1, 1] : tensor<5x2x2x8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<5x2x2x8xf32>>
  return
}
// -----

// Slices of stride 2 along the head dim.
func.func @slice_strided() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %c2560 = arith.constant 2560 : index
  %cst_2 = arith.constant 0.353553385 : f32
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c2560) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5x2x2x16xf32>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<5x2x2x8xf32>>
  %2 = tensor.empty() : tensor<5x2x2x8xf32>
  %3 = tensor.empty() : tensor<2x2x5x8xf32>
  %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [2, 0, 0, 0, 0], sizes = [1, 5, 2, 2, 8], strides = [1, 1, 1, 1, 2] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5x2x2x16xf32>> -> tensor<5x2x2x8xf32>
  %5 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [1, 0, 0, 0, 0], sizes = [1, 5, 2, 2, 8], strides = [1, 1, 1, 1, 2] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5x2x2x16xf32>> -> tensor<5x2x2x8xf32>
  %6 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0, 0, 0], sizes = [1, 5, 2, 2, 8], strides = [1, 1, 1, 1, 2] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x5x2x2x16xf32>> -> tensor<5x2x2x8xf32>
  %7 = tensor.empty() : tensor<2x2x5x8xf32>
  %8 = tensor.empty() : tensor<2x2x5xf32>
  %9 = linalg.fill ins(%cst_1 : f32) outs(%7 : tensor<2x2x5x8xf32>) -> tensor<2x2x5x8xf32>
  %10 = linalg.fill ins(%cst_0 : f32) outs(%8 : tensor<2x2x5xf32>) -> tensor<2x2x5xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<2x2x5xf32>) -> tensor<2x2x5xf32>
  // expected-remark @+1 {{ldsopt-attention: left to IREE: reads part of a binding (a tensor slice, not of static offsets, unit strides and sizes static or computed from the dispatch's workload)}}
  %12:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d5, d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>]> ins(%6, %5, %4, %cst_2 : tensor<5x2x2x8xf32>, tensor<5x2x2x8xf32>, tensor<5x2x2x8xf32>, f32) outs(%9, %10, %11 : tensor<2x2x5x8xf32>, tensor<2x2x5xf32>, tensor<2x2x5xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x2x5x8xf32>, tensor<2x2x5xf32>, tensor<2x2x5xf32>
  %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12#2, %12#0 : tensor<2x2x5xf32>, tensor<2x2x5x8xf32>) outs(%3 : tensor<2x2x5x8xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_3 : f32
    linalg.yield %16 : f32
  } -> tensor<2x2x5x8xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d1, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<2x2x5x8xf32>) outs(%2 : tensor<5x2x2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<5x2x2x8xf32>
  iree_tensor_ext.dispatch.tensor.store %14, %1, offsets = [0, 0, 0, 0], sizes = [5, 2, 2, 8], strides = [1, 1, 1, 1] : tensor<5x2x2x8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<5x2x2x8xf32>>
  return
}

// -----

// V held with its keys innermost (V^T), f16 with 80 query rows on CUDA: the mma.sync kernel
// would take it with V the other way; it reads V by ldmatrix.trans from [key, value dim] tiles
// only, so the dispatch is left to IREE, whose kernel uses the matrix cores (with mma=false, or
// on lavapipe, the FMA kernel takes it).
func.func @v_keys_inner_77_keys() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %c204800 = arith.constant 204800 : index
  %c163840 = arith.constant 163840 : index
  %c122880 = arith.constant 122880 : index
  %cst_2 = arith.constant 1.250000e-01 : f32
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c122880) flags("ReadOnly|Indirect") : memref<2x80x2x64xf16, strided<[10240, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c163840) flags("ReadOnly|Indirect") : memref<2x77x2x64xf16, strided<[9856, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c204800) flags("ReadOnly|Indirect") : memref<2x2x64x77xf16, strided<[9856, 4928, 77, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x80x2x64xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<2x80x2x64xf16, strided<[10240, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x80x2x64xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<2x77x2x64xf16, strided<[9856, 128, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x77x2x64xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<2x2x64x77xf16, strided<[9856, 4928, 77, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<2x2x64x77xf16>
  %7 = tensor.empty() : tensor<2x80x2x64xf16>
  %8 = tensor.empty() : tensor<2x2x80x64xf16>
  %9 = tensor.empty() : tensor<2x2x80x64xf32>
  %10 = tensor.empty() : tensor<2x2x80xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<2x2x80x64xf32>) -> tensor<2x2x80x64xf32>
  %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<2x2x80xf32>) -> tensor<2x2x80xf32>
  %13 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<2x2x80xf32>) -> tensor<2x2x80xf32>
  // expected-remark @+1 {{ldsopt-attention: left to IREE: V holds its keys innermost (V^T), which the target's matrix-core kernel does not read here}}
  %14:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5, d1, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>]> ins(%4, %5, %6, %cst_2 : tensor<2x80x2x64xf16>, tensor<2x77x2x64xf16>, tensor<2x2x64x77xf16>, f32) outs(%11, %12, %13 : tensor<2x2x80x64xf32>, tensor<2x2x80xf32>, tensor<2x2x80xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x2x80x64xf32>, tensor<2x2x80xf32>, tensor<2x2x80xf32>
  %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14#2, %14#0 : tensor<2x2x80xf32>, tensor<2x2x80x64xf32>) outs(%8 : tensor<2x2x80x64xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %17 = arith.divf %cst, %in : f32
    %18 = arith.mulf %17, %in_3 : f32
    %19 = arith.truncf %18 : f32 to f16
    linalg.yield %19 : f16
  } -> tensor<2x2x80x64xf16>
  %16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<2x2x80x64xf16>) outs(%7 : tensor<2x80x2x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<2x80x2x64xf16>
  iree_codegen.store_to_buffer %16, %3 : tensor<2x80x2x64xf16> into memref<2x80x2x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A score region that reads the head dim's loop (k1, loop 3 here): the kernels give a region
// the query row, the key and the grid loops only (IREE's dispatch formation renumbers no
// region index of an attention whose loops it permutes, so such a region can come from a
// causal one).
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @region_reads_head_dim() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 0xFF800000 : f32
  %cst_3 = arith.constant 1.250000e-01 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x100x64xf16>
  %5 = iree_codegen.load_from_buffer %1 : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x100x64xf16>
  %6 = iree_codegen.load_from_buffer %2 : memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x100x64xf16>
  %7 = tensor.empty() : tensor<2x100x64xf16>
  %8 = tensor.empty() : tensor<2x100x64xf32>
  %9 = tensor.empty() : tensor<2x100xf32>
  %10 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<2x100x64xf32>) -> tensor<2x100x64xf32>
  %11 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<2x100xf32>) -> tensor<2x100xf32>
  %12 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<2x100xf32>) -> tensor<2x100xf32>
  // expected-remark @+1 {{ldsopt-attention: left to IREE: the score region reads the loop of the head or value dim (iree_linalg_ext.index [3]); takes the query row, key and grid loops}}
  %13:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%4, %5, %6, %cst_3 : tensor<2x100x64xf16>, tensor<2x100x64xf16>, tensor<2x100x64xf16>, f16) outs(%10, %11, %12 : tensor<2x100x64xf32>, tensor<2x100xf32>, tensor<2x100xf32>) {
  ^bb0(%arg0: f32):
    %15 = iree_linalg_ext.index 1 : index
    %16 = iree_linalg_ext.index 3 : index
    %17 = arith.cmpi ugt, %16, %15 : index
    %18 = arith.select %17, %cst_2, %arg0 : f32
    iree_linalg_ext.yield %18 : f32
  } -> tensor<2x100x64xf32>, tensor<2x100xf32>, tensor<2x100xf32>
  %14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13#2, %13#0 : tensor<2x100xf32>, tensor<2x100x64xf32>) outs(%7 : tensor<2x100x64xf16>) {
  ^bb0(%in: f32, %in_4: f32, %out: f16):
    %15 = arith.divf %cst, %in : f32
    %16 = arith.mulf %15, %in_4 : f32
    %17 = arith.truncf %16 : f32 to f16
    linalg.yield %17 : f16
  } -> tensor<2x100x64xf16>
  iree_codegen.store_to_buffer %14, %3 : tensor<2x100x64xf16> into memref<2x100x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}
