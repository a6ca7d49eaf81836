// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=128x256x8x16})' | filecheck %s --check-prefix=TMA
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=128x256x8x16 tma=false})' | filecheck %s --check-prefix=CPASYNC

// The wgmma scheme's operands copied by TMA (ldsopt/matmul/tma_copy.py), NT f16 300x512x200 in
// 128x256 tiles (M and K tails). Warp 0 builds a tensor map per operand in LDS: dims innermost
// first (K 200, then 300 rows of A), its 64 x 128 box (64 x 256 for B), the row stride in bytes,
// f16, the 128-byte swizzle; it publishes them at the first row of the workgroup's own output tile,
// which thread 0 acquires after the barrier that publishes them. Thread 0 inits an mbarrier per LDS
// tile. The prologue announces 3 tiles' 48 KiB (16 KiB of A, 32 KiB of B) and starts one box per
// operand for each; every thread waits for tile 0 by parity. Each K step: the wgmmas, `wait.group
// 1`, the wait for the next tile (past the last step none), one barrier (every warpgroup is done
// with the LDS tile the copies of tile kt + 3 then refill), and thread 0's next boxes. No cp.async
// is left.
// TMA-LABEL: func.func @nt_f16
// TMA:         memref.alloc() alignment = 8 : memref<4xi64, #gpu.address_space<workgroup>>
// TMA:         memref.alloc() alignment = 128 : memref<256xi8, #gpu.address_space<workgroup>>
// TMA:         nvvm.tensormap.replace field = global_address
// TMA:         nvvm.tensormap.replace field = box_dim[0], new_value = %c64_i32
// TMA:         nvvm.tensormap.replace field = global_dim[0], new_value = %c200_i32
// TMA:         nvvm.tensormap.replace field = box_dim[1], new_value = %c128_i32
// TMA:         nvvm.tensormap.replace field = global_dim[1], new_value = %c300_i32
// TMA:         nvvm.tensormap.replace field = global_stride[0], new_value = %c400_i64
// TMA:         nvvm.tensormap.replace field = elemtype, new_value = #nvvm.tensormap_elemtype<f16>
// TMA:         nvvm.tensormap.replace field = swizzle_mode, new_value = #nvvm.tensormap_swizzle_mode<b128>
// TMA:         nvvm.tensormap.replace field = box_dim[1], new_value = %c256_i32
// TMA:         nvvm.tensormap.replace field = global_dim[1], new_value = %c512_i32
// TMA-COUNT-4: nvvm.mbarrier.init
// TMA:         nvvm.fence.mbarrier.init
// TMA:         tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned
// TMA:         tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned
// TMA:         gpu.barrier
// TMA:         fence.proxy.tensormap::generic.acquire.gpu
// TMA-COUNT-3: nvvm.mbarrier.arrive.expect_tx %{{.+}}, %c49152_i32
// TMA:         nvvm.mbarrier.try_wait.parity
// TMA-NEXT:    gpu.barrier
// TMA:         scf.for
// TMA-COUNT-4:   nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
// TMA-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// TMA-NEXT:      nvvm.wgmma.wait.group.sync.aligned 1
// TMA:           scf.if
// TMA:             nvvm.mbarrier.try_wait.parity
// TMA:           gpu.barrier
// TMA:           scf.if
// TMA:             nvvm.mbarrier.arrive.expect_tx %{{.+}}, %c49152_i32
// TMA-COUNT-2:     nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[
// TMA:         nvvm.wgmma.wait.group.sync.aligned 0
// TMA-NOT:     nvgpu.device_async_copy
// tma=false: cp.async as before.
// CPASYNC-LABEL: func.func @nt_f16
// CPASYNC-NOT:     nvvm.cp.async.bulk.tensor
// CPASYNC:         nvgpu.device_async_copy
// CPASYNC-NOT:     nvvm.cp.async.bulk.tensor

func.func @nt_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<300x200xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<512x200xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<300x512xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<300x200xf16, #hal.descriptor_type<storage_buffer>> -> tensor<300x200xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<512x200xf16, #hal.descriptor_type<storage_buffer>> -> tensor<512x200xf16>
  %5 = tensor.empty() : tensor<300x512xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<300x512xf32>) -> tensor<300x512xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<300x200xf16>, tensor<512x200xf16>) outs(%6 : tensor<300x512xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<300x512xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<300x512xf32> into memref<300x512xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// NN f16: B [k, n] is held MN-major, so its map's dims are (512 columns, 200 K rows), its box 64
// columns by the step's 64 K rows, and each step copies 4 such boxes (the 256 columns' blocks).
// TMA-LABEL: func.func @nn_f16
// TMA:         nvvm.tensormap.replace field = global_dim[0], new_value = %c512_i32
// TMA:         nvvm.tensormap.replace field = box_dim[1], new_value = %c64_i32
// TMA:         nvvm.tensormap.replace field = global_dim[1], new_value = %c200_i32
// TMA:         nvvm.tensormap.replace field = global_stride[0], new_value = %c1024_i64
// TMA:         scf.for
// TMA:           nvvm.mbarrier.arrive.expect_tx %{{.+}}, %c49152_i32
// TMA-COUNT-5:   nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[
// CPASYNC-LABEL: func.func @nn_f16

func.func @nn_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<300x200xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<200x512xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<300x512xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<300x200xf16, #hal.descriptor_type<storage_buffer>> -> tensor<300x200xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<200x512xf16, #hal.descriptor_type<storage_buffer>> -> tensor<200x512xf16>
  %5 = tensor.empty() : tensor<300x512xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<300x512xf32>) -> tensor<300x512xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<300x200xf16>, tensor<200x512xf16>) outs(%6 : tensor<300x512xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<300x512xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<300x512xf32> into memref<300x512xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// An N tail (500 columns: the last tile's first output row cannot hold the maps for the tile
// alone): cp.async. Of its 4 K steps, steps 1-3 start the copies of tiles past K (tile kt + 3):
// a second loop, whose copies read nothing (their source size a constant 0 once folded).
// TMA-LABEL: func.func @nt_f16_n_tail
// TMA-NOT:     nvvm.cp.async.bulk.tensor
// TMA:         nvgpu.device_async_copy
// TMA:         scf.for %{{.*}} = %c0 to %c1 step %c1
// TMA:           nvgpu.device_async_copy
// TMA:         scf.for %{{.*}} = %c1 to %c4 step %c1
// TMA:           nvgpu.device_async_copy
// TMA-NOT:     nvvm.cp.async.bulk.tensor
// CPASYNC-LABEL: func.func @nt_f16_n_tail

func.func @nt_f16_n_tail() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<300x200xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<500x200xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<300x500xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<300x200xf16, #hal.descriptor_type<storage_buffer>> -> tensor<300x200xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<500x200xf16, #hal.descriptor_type<storage_buffer>> -> tensor<500x200xf16>
  %5 = tensor.empty() : tensor<300x500xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<300x500xf32>) -> tensor<300x500xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<300x200xf16>, tensor<500x200xf16>) outs(%6 : tensor<300x500xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<300x500xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<300x500xf32> into memref<300x500xf32, #hal.descriptor_type<storage_buffer>>
  return
}
