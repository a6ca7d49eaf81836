// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{configs=all})' | filecheck %s --check-prefix=ALL
// RUN: not lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{configs=some})' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: <pass-pipeline>:1:{{[0-9]+}}: error: option 'configs' of pass 'ldsopt-vector-distribute' takes user | all | none; got 'some'

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A select-based body (an argmax-like compare) is no combining op: left alone.
// CHECK-LABEL: func.func @select_body
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic
func.func @select_body() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<16x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x8xf32>
  %3 = tensor.empty() : tensor<16xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<16xf32>) -> tensor<16xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x8xf32>) outs(%4 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.cmpf ogt, %in, %out : f32
    %6 = arith.select %c, %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<16xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<16xf32> into memref<16xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A tiling-only lowering_config (IREE's TileAndFuse choice, no bases) states no layout: the
// default plan is used.
// CHECK-LABEL: func.func @tiling_only_config
// CHECK-SAME:    source = "default"
func.func @tiling_only_config() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<16x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x8xf32>
  %3 = tensor.empty() : tensor<16xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<16xf32>) -> tensor<16xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x8xf32>) outs(%4 : tensor<16xf32>) attrs = {ldsopt.user_config, lowering_config = #iree_gpu.lowering_config<{reduction = [0, 4], thread = [1, 0], workgroup = [32, 0]}>} {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<16xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<16xf32> into memref<16xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A layout lowering_config without ldsopt.user_config is IREE's own choice (its configuration
// of a program that carried none; here IREE 3.13's config of a sum over the middle dim,
// iterators interchanged: 32 lanes down the reduced dim, one output per workgroup): the
// default plan replaces it (lanes across the 8 contiguous outputs, vectors of 4).
// CHECK-LABEL: func.func @iree_own_config
// CHECK-SAME:    lanes = "parallel_fastest", {{.*}} parallel = array<i64: 1, 1, 2, 4>, {{.*}} source = "default"
// configs=all follows it as written (hand-written dispatch IR): all 8 lanes down the reduced
// dim, one output per workgroup, scalar reads.
// ALL-LABEL: func.func @iree_own_config
// ALL-SAME:    lanes = "reduction_fastest", parallel = array<i64: 1, 1, 1, 1>, {{.*}} reduction = array<i64: 1, 32, 8, 1>, source = "lowering_config"
func.func @iree_own_config() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x256x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<4x256x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<4x256x8xf32>
  %3 = tensor.empty() : tensor<4x8xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%2 : tensor<4x256x8xf32>) outs(%4 : tensor<4x8xf32>) attrs = {lowering_config = #iree_gpu.lowering_config<{lane_basis = [[1, 1, 8], [0, 1, 2]], partial_reduction = [0, 0, 32], subgroup_basis = [[1, 1, 1], [0, 1, 2]], thread = [0, 0, 4], workgroup = [1, 1, 0]}>} {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<4x8xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<4x8xf32> into memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
  return
}
