// RUN: lds-opt %s --split-input-file --target=cuda-sm90a \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x8x4 multicast=2x2})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x8x4})' | filecheck %s --check-prefix=NONE
// RUN: not lds-opt %s --target=cuda-sm90a \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{multicast=2y2})' 2>&1 | filecheck %s --check-prefix=BAD

// The wgmma scheme's TMA copies shared over clusters of 2 x 2 workgroups (ldsopt/matmul/tma_copy.py):
// NT f16 256x256x520, 64x64 tiles (4 x 4 of them), 9 K steps. The kernel declares the cluster
// (x along N) and a producer warp past the 128 math threads. The math warps start the first
// three K tiles by cp.async, whole. Warp 0 of rank 0 alone builds the maps, each of a half box
// (32 rows of the 64). Thread 0 inits a full mbarrier per LDS tile (count 1) and an empty one
// (count 12: 4 math warps of each of the 3 workgroups whose copies land here, itself
// included); a cluster barrier publishes them and the maps, which the producer acquires. The
// math warps' loop: the wgmmas, `wait.group 1`, then lanes of each warp arrive on the empty
// mbarrier of LDS tile kt - 1 in each writer (mapa + a remote arrive), and all wait for the
// next tile where TMA copies it; no workgroup barrier. The producer warp's loop: tiles 3..8,
// each once its LDS tile's writers released it, multicast to the two workgroups that share
// it (an i16 mask); its accumulators are undefined, not the math warps' zeros (ptxas would
// serialize the wgmmas). A cluster barrier after the loops keeps the output from overwriting the
// maps (rank 0's band) while any workgroup still issues copies; the math warps store, their
// barriers named (1, 128 threads).
// CHECK-LABEL: func.func @nt_f16
// CHECK-SAME:    nvvm.cluster_dim = array<i32: 2, 2, 1>
// CHECK:         gpu.thread_id x upper_bound 160
// CHECK-COUNT-3: nvgpu.device_async_create_group
// CHECK:         nvvm.tensormap.replace field = box_dim[1], new_value = %c32_i32
// CHECK:         nvvm.tensormap.replace field = box_dim[1], new_value = %c32_i32
// CHECK:         nvvm.mbarrier.init %{{.+}}, %c1_i32
// CHECK:         nvvm.mbarrier.init %{{.+}}, %c12_i32
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         tensormap.cp_fenceproxy
// CHECK:         nvvm.cluster.arrive
// CHECK-NEXT:    nvvm.cluster.wait
// CHECK:         fence.proxy.tensormap::generic.acquire.gpu
// CHECK:         nvvm.cp.async.wait.group 0
// CHECK:         gpu.barrier
// CHECK:         scf.if
// CHECK:           scf.for {{.*}} = %c0 to %c9
// CHECK-COUNT-4:     nvvm.wgmma.mma_async
// CHECK:             nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:             scf.if
// CHECK:               mapa.shared::cluster.u32
// CHECK-SAME:          mbarrier.arrive.shared::cluster.b64
// CHECK:             scf.if
// CHECK:               nvvm.mbarrier.try_wait.parity
// CHECK-NOT:         gpu.barrier
// CHECK:         } else {
// CHECK:           scf.for {{.*}} = %c3 to %c9
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:             nvvm.mbarrier.arrive.expect_tx %{{.+}}, %c16384_i32
// CHECK-COUNT-2:     nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} multicast_mask
// CHECK:           %[[UNSET:.+]] = llvm.mlir.undef : !llvm.struct
// CHECK-NEXT:      scf.yield %[[UNSET]]
// CHECK:         nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:    nvvm.cluster.arrive
// CHECK-NEXT:    nvvm.cluster.wait
// CHECK:         scf.if
// CHECK:           nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
// Without the option: no cluster, and a 64-column f32 tile's row holds one map, not both: cp.async.
// NONE-LABEL: func.func @nt_f16
// NONE-NOT:     nvvm.cluster_dim
// NONE-NOT:     nvvm.tensormap.replace
// NONE:         nvgpu.device_async_copy
// BAD: error: {{.*}}multicast{{.*}}'2y2' is not CMxCN
func.func @nt_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x520xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x520xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<256x256xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<256x520xf16, #hal.descriptor_type<storage_buffer>> -> tensor<256x520xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<256x520xf16, #hal.descriptor_type<storage_buffer>> -> tensor<256x520xf16>
  %5 = tensor.empty() : tensor<256x256xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<256x520xf16>, tensor<256x520xf16>) outs(%6 : tensor<256x256xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<256x256xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<256x256xf32> into memref<256x256xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// 3 x 4 tiles do not fill clusters of 2 x 2: the kernel stays unshared (cp.async: its tile rows
// hold one map), saying why.
// CHECK-LABEL: func.func @m_tiles_not_whole_clusters
// CHECK-SAME:    ldsopt.multicast_refused = "3x4 tiles that clusters of 2x2 do not fill"
// CHECK-NOT:     nvvm.cluster_dim
// CHECK-NOT:     nvvm.cp.async.bulk.tensor
// CHECK:         nvgpu.device_async_copy
func.func @m_tiles_not_whole_clusters() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<192x200xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x200xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<192x256xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<192x200xf16, #hal.descriptor_type<storage_buffer>> -> tensor<192x200xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<256x200xf16, #hal.descriptor_type<storage_buffer>> -> tensor<256x200xf16>
  %5 = tensor.empty() : tensor<192x256xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<192x256xf32>) -> tensor<192x256xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<192x200xf16>, tensor<256x200xf16>) outs(%6 : tensor<192x256xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<192x256xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<192x256xf32> into memref<192x256xf32, #hal.descriptor_type<storage_buffer>>
  return
}
