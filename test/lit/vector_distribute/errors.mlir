// Layout configs that cannot be honoured are errors at the root op, with the reason.
// RUN: lds-opt %s --split-input-file --verify-diagnostics --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute)'

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A config written for subgroups of 64 is not silently rescaled.
func.func @wrong_subgroup_size() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<16x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x8xf32>
  %3 = tensor.empty() : tensor<16xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{ldsopt-vector-distribute: cannot honour the lowering_config: lowering_config is written for subgroups of 64 lanes, the target has 8 (set scale-config-to-target=true to rescale it)}}
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x8xf32>) outs(%4 : tensor<16xf32>) attrs = {ldsopt.user_config, lowering_config = #iree_gpu.lowering_config<{workgroup = [4, 0], partial_reduction = [0, 256], lane_basis = [[4, 16], [0, 1]], subgroup_basis = [[1, 4], [0, 1]]}>} {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<16xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<16xf32> into memref<16xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// The workgroup tile must be what the bases and vectors cover.
func.func @tile_mismatch() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<16x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x8xf32>
  %3 = tensor.empty() : tensor<16xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{ldsopt-vector-distribute: cannot honour the lowering_config: workgroup tile [4, 0] covers 4 outputs, the bases and vectors give 16}}
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x8xf32>) outs(%4 : tensor<16xf32>) attrs = {ldsopt.user_config, lowering_config = #iree_gpu.lowering_config<{workgroup = [4, 0], partial_reduction = [0, 8], lane_basis = [[8, 1], [0, 1]], subgroup_basis = [[2, 2], [0, 1]]}>} {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<16xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<16xf32> into memref<16xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// SPIR-V takes vectors of at most 4 elements.
func.func @vector_too_wide() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<16x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x64xf32>
  %3 = tensor.empty() : tensor<16xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{ldsopt-vector-distribute: cannot honour the lowering_config: vectors of 8 elements exceed the target's widest load (4)}}
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x64xf32>) outs(%4 : tensor<16xf32>) attrs = {ldsopt.user_config, lowering_config = #iree_gpu.lowering_config<{workgroup = [1, 0], thread = [0, 8], lane_basis = [[1, 8], [0, 1]]}>} {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<16xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<16xf32> into memref<16xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// The bases must cover the stated workgroup size.
func.func @workgroup_size_mismatch() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [64, 1, 1] subgroup_size = 8>} {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<16x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x8xf32>
  %3 = tensor.empty() : tensor<16xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{ldsopt-vector-distribute: cannot honour the lowering_config: bases cover 24 threads, workgroup_size is [64, 1, 1]}}
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x8xf32>) outs(%4 : tensor<16xf32>) attrs = {ldsopt.user_config, lowering_config = #iree_gpu.lowering_config<{workgroup = [2, 0], lane_basis = [[2, 4], [0, 1]], subgroup_basis = [[1, 3], [0, 1]]}>} {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<16xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<16xf32> into memref<16xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A user's layout config on a generic of a fused dispatch (here exp(x - max(x))): only the
// default plan distributes fused rows.
func.func @fused_layout_config() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0xFF800000 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<16x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x64xf32>
  %3 = tensor.empty() : tensor<16xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<16xf32>) -> tensor<16xf32>
  // expected-error @+1 {{ldsopt-vector-distribute: cannot honour the lowering_config: a layout config on a fused dispatch (several ops over the rows) is not supported}}
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x64xf32>) outs(%4 : tensor<16xf32>) attrs = {ldsopt.user_config, lowering_config = #iree_gpu.lowering_config<{workgroup = [1, 0], partial_reduction = [0, 64], lane_basis = [[1, 8], [0, 1]], subgroup_basis = [[1, 2], [0, 1]]}>} {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.maximumf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<16xf32>
  %6 = tensor.empty() : tensor<16x64xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2, %5 : tensor<16x64xf32>, tensor<16xf32>) outs(%6 : tensor<16x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %8 = arith.subf %in, %m : f32
    %9 = math.exp %8 : f32
    linalg.yield %9 : f32
  } -> tensor<16x64xf32>
  iree_codegen.store_to_buffer %7, %1 : tensor<16x64xf32> into memref<16x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
