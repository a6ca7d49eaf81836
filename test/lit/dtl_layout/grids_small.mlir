// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-dtl-layout{grids=small k-bytes=128 stages=4}, ldsopt-inthread-transpose, ldsopt-matmul-lds)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-dtl-layout{grids=small k-bytes=128 stages=4}, ldsopt-inthread-transpose, ldsopt-matmul-lds)' | filecheck %s --check-prefix=GFX942
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-dtl-layout{grids=small tiles=128x128x8x8 k-bytes=128 stages=4}, ldsopt-inthread-transpose, ldsopt-matmul-lds)' | filecheck %s --check-prefix=NOPLAN
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-dtl-layout{grids=auto k-bytes=128 stages=3}, ldsopt-inthread-transpose, ldsopt-matmul-lds)' | filecheck %s --check-prefix=AUTO
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-dtl-layout{grids=auto k-bytes=128 stages=3 wgmma=false}, ldsopt-inthread-transpose, ldsopt-matmul-lds{wgmma=false})' | filecheck %s --check-prefix=HOPPER

// `grids=small` (and the default pipeline's `grids=auto`): a matmul whose register staging is
// bound by load latency (a grid of about one wave on a cp.async target, K filling the 4-step
// pipeline) is staged by cp.async in 128-byte K steps; ldsopt-inthread-transpose leaves it as
// recorded.
// 512 x 768 x 768 f16 on CUDA: 96 workgroups of 64x64 for 264 slots (132 SMs x 2).
// CHECK-LABEL: func.func @bert_projection
// CHECK-SAME:    ldsopt.dtl = {A = "direct {{.*}}", B = "direct {{.*}}"}
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-dtl-layout", "ldsopt-matmul-lds"]
// CHECK-SAME:    ldsopt.missed = [{{.*}}["ldsopt-inthread-transpose", "its operands are staged already (by ldsopt-dtl-layout)"]]
// CHECK:         memref.alloc() alignment = 16 {{.*}}operand = "A"{{.*}}tile = [64, 64]
// CHECK:         nvgpu.device_async_copy
// CHECK:         scf.for %{{.*}} = %c0 to %c12 step %c1
// `grids=auto` (the default pipeline's) takes it the same way, in 4 warps; its 96 workgroups are
// fewer than the 132 SMs, so it takes a fourth stage, and ldsopt-matmul-lds carries the first
// fragments of each K step in registers (8 accumulators, then the A and B fragments).
// AUTO:        workgroup_size = [128, 1, 1]
// AUTO-LABEL:  func.func @bert_projection
// AUTO-SAME:     ldsopt.lowered_by = ["ldsopt-dtl-layout", "ldsopt-matmul-lds"]
// AUTO:          memref.alloc() alignment = 16 {{.*}}lds_shape = [4, 4096], operand = "A"{{.*}}tile = [64, 64]
// AUTO:          memref.alloc() alignment = 16 {{.*}}lds_shape = [4, 4096], operand = "B"{{.*}}tile = [64, 64]
// AUTO:          scf.for %{{.*}} = %c0 to %c12 step %c1 iter_args({{.*}}) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf16>, {{.*}}) {
// On gfx942 (no asynchronous copy) the pass leaves it to the others.
// GFX942-LABEL: func.func @bert_projection
// GFX942-SAME:    ldsopt.missed = [["ldsopt-dtl-layout", "grids=small: the target has no asynchronous copy to LDS"]]
// GFX942-NOT:     ldsopt.dtl
// With options no plan of which fits (4 LDS tiles of 128x128 by 128 bytes of K), it leaves the
// dispatch too, saying why, rather than failing the pipeline.
// NOPLAN-LABEL: func.func @bert_projection
// NOPLAN-SAME:    ldsopt.missed = [["ldsopt-dtl-layout", "grids=small: no tiling of tiles=128x128x8x8 fits the target's threads (whole subgroups of 32, at most 1024), vectors and LDS"]]
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @bert_projection() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<512x768xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<768x768xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<512x768xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<512x768xf16, #hal.descriptor_type<storage_buffer>> -> tensor<512x768xf16>
  %b = iree_codegen.load_from_buffer %1 : memref<768x768xf16, #hal.descriptor_type<storage_buffer>> -> tensor<768x768xf16>
  %e = tensor.empty() : tensor<512x768xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<512x768xf32>) -> tensor<512x768xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x768xf16>, tensor<768x768xf16>) outs(%z : tensor<512x768xf32>) -> tensor<512x768xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<512x768xf32> into memref<512x768xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @bert_projection {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}


// -----

// The QKV projection, 512 x 2304 x 768: 288 workgroups of 64x64, more than the 132 SMs, so
// `grids=auto` keeps its 3 stages and ldsopt-matmul-lds its uncarried loop.
// AUTO-LABEL:  func.func @bert_qkv
// AUTO-SAME:     ldsopt.lowered_by = ["ldsopt-dtl-layout", "ldsopt-matmul-lds"]
// AUTO:          memref.alloc() alignment = 16 {{.*}}lds_shape = [3, 4096], operand = "A"{{.*}}tile = [64, 64]
// AUTO:          scf.for %{{.*}} = %c0 to %c12 step %c1 iter_args({{.*}}) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>) {
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @bert_qkv() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<512x768xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<768x2304xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<512x2304xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<512x768xf16, #hal.descriptor_type<storage_buffer>> -> tensor<512x768xf16>
  %b = iree_codegen.load_from_buffer %1 : memref<768x2304xf16, #hal.descriptor_type<storage_buffer>> -> tensor<768x2304xf16>
  %e = tensor.empty() : tensor<512x2304xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<512x2304xf32>) -> tensor<512x2304xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x768xf16>, tensor<768x2304xf16>) outs(%z : tensor<512x2304xf32>) -> tensor<512x2304xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<512x2304xf32> into memref<512x2304xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @bert_qkv {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}


// -----

// NT f16 4096^3: its grid fills the GPU many times over; left to the register staging.
// CHECK-LABEL: func.func @nt_f16_4096
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK-SAME:    ldsopt.missed = [["ldsopt-dtl-layout", "grids=small: 4096 workgroups of 64x64 fill the 264 workgroup slots more than 1.5 times"]]
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         nvgpu.mma.sync
// Under `grids=auto` it is a large product (512 tiles of 128x256 for 132 SMs, 2 waves at least):
// cp.async in 128x256 tiles of 8 warps, one workgroup an SM, 64 bytes of K (128 steps), 3 LDS
// tiles, and ldsopt-matmul-lds carries each step's first fragments (`carry-fragments=auto`).
// AUTO:        workgroup_size = [256, 1, 1]
// AUTO-LABEL:  func.func @nt_f16_4096
// AUTO-SAME:     ldsopt.lowered_by = ["ldsopt-dtl-layout", "ldsopt-matmul-lds"]
// AUTO:          memref.alloc() alignment = 16 {{.*}}operand = "A"{{.*}}tile = [128, 32]
// AUTO:          memref.alloc() alignment = 16 {{.*}}operand = "B"{{.*}}tile = [256, 32]
// AUTO:          nvgpu.device_async_copy
// AUTO:          scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args({{.*}}) -> ({{.*}}vector<2x2xf32>, vector<2x2xf16>, {{.*}}, vector<4x2xf16>) {
// On sm_90a with mma.sync (`wgmma=false`), an SM's 227 KiB hold 3 stages of 128 bytes of K (64
// steps): the widest K step of LARGE_GRID_K_BYTES that fits; and since B is K-contiguous, 4
// stages of it (LARGE_WALK_STAGES), the plan's `walk` making ldsopt-matmul-lds's
// `persistent=auto` walk the tiles: 132 workgroups, each a loop over its tiles around the K loop.
// HOPPER-LABEL: func.func @nt_f16_4096
// HOPPER-SAME:    ldsopt.lowered_by = ["ldsopt-dtl-layout", "ldsopt-matmul-lds"]
// HOPPER-NOT:     ldsopt.persistent_refused
// HOPPER:         memref.alloc() alignment = 16 {{.*}}operand = "A"{{.*}}tile = [128, 64]
// HOPPER-SAME:      memref<4x8192xf16
// HOPPER:         memref.alloc() alignment = 16 {{.*}}operand = "B"{{.*}}tile = [256, 64]
// HOPPER-SAME:      memref<4x16384xf16
// HOPPER:         gpu.block_id x upper_bound 132
// HOPPER:         nvgpu.device_async_copy
// HOPPER:         scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(
// HOPPER:           scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(
// HOPPER:           nvgpu.mma.sync

func.func @nt_f16_4096() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>> -> tensor<4096x4096xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>> -> tensor<4096x4096xf16>
  %5 = tensor.empty() : tensor<4096x4096xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%6 : tensor<4096x4096xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<4096x4096xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<4096x4096xf32> into memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// NN f16 4096^3 on sm_90a with mma.sync: B is N-contiguous, so the large plan keeps 3 stages and
// a plain grid (walking measured slower there: bench/results/cuda-matmul/persistent-mma/).
// HOPPER-LABEL: func.func @nn_f16_4096
// HOPPER-SAME:    ldsopt.lowered_by = ["ldsopt-dtl-layout", "ldsopt-matmul-lds"]
// HOPPER:         memref.alloc() alignment = 16 {{.*}}operand = "A"{{.*}}tile = [128, 64]
// HOPPER-SAME:      memref<3x8192xf16
// HOPPER-NOT:     upper_bound 132
// HOPPER:         scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(
// HOPPER-NOT:     scf.for
// HOPPER:         nvgpu.mma.sync

func.func @nn_f16_4096() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>> -> tensor<4096x4096xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>> -> tensor<4096x4096xf16>
  %5 = tensor.empty() : tensor<4096x4096xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<4096x4096xf16>, tensor<4096x4096xf16>) outs(%6 : tensor<4096x4096xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<4096x4096xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<4096x4096xf32> into memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  return
}
