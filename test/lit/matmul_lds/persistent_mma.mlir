// RUN: lds-opt %s --split-input-file --target=cuda \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{persistent=true})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds)' | filecheck %s --check-prefix=AUTO

// An mma.sync kernel walking its tiles (ldsopt/matmul/persistent.py, `persistent=true`): NT f16
// 2048x2304x520 on the plan's 128x64 tiles, two workgroups an SM, is 16 x 36 = 576 tiles, so
// 264 workgroups walk them (tile w, then w + 264, ...). Each tile's K loop (17 steps of 32)
// carries the LDS tile of its step from the last tile's loop (0, 1, 0, ... over the walk's
// iterations) and reads the registers of the step after it: K step kt + 1 of tile j, or past
// the tile's last step K step 0 of tile j + 1 (its origin that tile's), or past this
// workgroup's last tile its last tile and K tile 17, clamped to the last K offset 512; so a
// tile's last step reads the next tile's first K tile. The tile is stored at its own origin
// after its loop, inside the walk. By default (auto) only the wgmma kernels walk.
// AUTO-LABEL: func.func @nt_f16_walk
// AUTO:         gpu.block_id x upper_bound 36
// AUTO-NOT:     gpu.block_id x upper_bound 264
// CHECK-LABEL: func.func @nt_f16_walk
// CHECK-NOT:     ldsopt.persistent_refused
// CHECK:         %[[W:.+]] = gpu.block_id x upper_bound 264
// CHECK:         %[[LEFT:.+]] = arith.subi %c575, %[[W]]
// CHECK:         %[[MORE:.+]] = arith.divui %[[LEFT]], %c264
// CHECK:         %[[COUNT:.+]] = arith.addi %[[MORE]], %c1
// CHECK:         scf.for %[[J:.+]] = %c0 to %[[COUNT]] step %c1 iter_args(%[[FIRST_LDS:.+]] = %c0) -> (index) {
// CHECK:           scf.for %[[KT:.+]] = %c0 to %c17 step %c1 iter_args({{.*}}, %[[LDS:.+]] = %[[FIRST_LDS]])
// CHECK:             %[[NEXT:.+]] = arith.addi %[[KT]], %c1
// CHECK:             %[[CROSSED:.+]] = arith.divui %[[NEXT]], %c17
// CHECK:             %[[TILE_J:.+]] = arith.addi %[[J]], %[[CROSSED]]
// CHECK:             %[[LIVE:.+]] = arith.cmpi ult, %[[TILE_J]], %[[COUNT]]
// CHECK:             %[[LAST:.+]] = arith.subi %[[COUNT]], %c1
// CHECK:             %[[J_READ:.+]] = arith.select %[[LIVE]], %[[TILE_J]], %[[LAST]]
// CHECK:             %[[K_TILE:.+]] = arith.remui %[[NEXT]], %c17
// CHECK:             %[[K_READ:.+]] = arith.select %[[LIVE]], %[[K_TILE]], %c17
// CHECK:             %[[STRIDE:.+]] = arith.muli %[[J_READ]], %c264
// CHECK:             %[[TILE:.+]] = arith.addi %[[W]], %[[STRIDE]]
// CHECK:             arith.divui %[[TILE]], %c36
// CHECK:             %[[K0:.+]] = arith.muli %[[K_READ]], %c32
// CHECK:             arith.minui %[[K0]], %c512
// CHECK-COUNT-16:    nvgpu.mma.sync
// CHECK:             %[[LDS_NEXT:.+]] = arith.addi %[[LDS]], %c1
// CHECK:             %[[WRAPS:.+]] = arith.cmpi uge, %[[LDS_NEXT]], %c2
// CHECK:             %[[WRAPPED:.+]] = arith.subi %[[LDS_NEXT]], %c2
// CHECK:             %[[STORED_LDS:.+]] = arith.select %[[WRAPS]], %[[WRAPPED]], %[[LDS_NEXT]]
// CHECK:             vector.store %{{.+}}, %{{.+}}[%[[STORED_LDS]],
// CHECK:             gpu.barrier
// CHECK:             scf.yield
// CHECK:           }
// CHECK:           %[[MINE:.+]] = arith.muli %[[J]], %c264
// CHECK:           arith.addi %[[W]], %[[MINE]]
// CHECK:           vector.store
// CHECK:           scf.yield %{{.+}} : index
// CHECK:         }
// CHECK-NEXT:    return
func.func @nt_f16_walk() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2048x520xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2304x520xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2048x2304xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<2048x520xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2048x520xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<2304x520xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2304x520xf16>
  %5 = tensor.empty() : tensor<2048x2304xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<2048x2304xf32>) -> tensor<2048x2304xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<2048x520xf16>, tensor<2304x520xf16>) outs(%6 : tensor<2048x2304xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<2048x2304xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<2048x2304xf32> into memref<2048x2304xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A recorded plan whose `walk` is set (ldsopt-dtl-layout's large NT products on sm_90a record it)
// walks under `persistent=auto` too, whatever its scheme.
// AUTO-LABEL: func.func @nt_f16_plan_walks
// AUTO-NOT:     ldsopt.persistent_refused
// AUTO:         gpu.block_id x upper_bound 264
// AUTO:         scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(
// AUTO:           scf.for %{{.*}} = %c0 to %c17 step %c1 iter_args(
// CHECK-LABEL: func.func @nt_f16_plan_walks
// CHECK:         gpu.block_id x upper_bound 264

func.func @nt_f16_plan_walks() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2048x520xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2304x520xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2048x2304xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<2048x520xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2048x520xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<2304x520xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2304x520xf16>
  %5 = tensor.empty() : tensor<2048x2304xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<2048x2304xf32>) -> tensor<2048x2304xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<2048x520xf16>, tensor<2304x520xf16>) outs(%6 : tensor<2048x2304xf32>) attrs = {ldsopt.matmul_plan = {by = "hand", k_bytes = 64 : i64, k_pack = -1 : i64, mma = true, stages = 2 : i64, tiling = "128x64x8x4", workgroups_per_cu = 2 : i64, walk = true}} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<2048x2304xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<2048x2304xf32> into memref<2048x2304xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A dynamic M: its tiles are counted at run time, so the kernel stays a plain grid, saying why.
// CHECK-LABEL: func.func @dynamic_m_bias_f32
// CHECK-SAME:    ldsopt.persistent_refused = "its M, N or K is dynamic (the walk counts its tiles and K steps at compile time)"
// CHECK:         gpu.block_id  y upper_bound
// AUTO-LABEL: func.func @dynamic_m_bias_f32
// AUTO-NOT:     ldsopt.persistent_refused
#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_m_bias_f32() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %m = iree_tensor_ext.dispatch.workload.ordinal %1, 0 : index
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%m}
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x48xf32>>
  %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<48xf32>>
  %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x48xf32>>{%m}
  %a = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [%m, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%m} -> tensor<?x64xf32>
  %b = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0, 0], sizes = [64, 48], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x48xf32>> -> tensor<64x48xf32>
  %bias = iree_tensor_ext.dispatch.tensor.load %4, offsets = [0], sizes = [48], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<48xf32>> -> tensor<48xf32>
  %e = tensor.empty(%m) : tensor<?x48xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<?x48xf32>) -> tensor<?x48xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x48xf32>) outs(%z : tensor<?x48xf32>) -> tensor<?x48xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<?x48xf32>, tensor<48xf32>) outs(%e : tensor<?x48xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<?x48xf32>
  iree_tensor_ext.dispatch.tensor.store %y, %5, offsets = [0, 0], sizes = [%m, 48], strides = [1, 1] : tensor<?x48xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x48xf32>>{%m}
  return
}
