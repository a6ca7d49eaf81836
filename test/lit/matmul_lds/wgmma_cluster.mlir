// RUN: lds-opt %s --split-input-file --verify-diagnostics --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-matmul-lds{cluster-k=2})' | filecheck %s --check-prefix=TWO
// RUN: lds-opt %s --split-input-file --verify-diagnostics --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-matmul-lds)' | filecheck %s --check-prefix=NONE
// RUN: not lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-matmul-lds{cluster-k=3})' 2>&1 | filecheck %s --check-prefix=THREE
// RUN: not lds-opt %s --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-matmul-lds{cluster-k=9})' 2>&1 | filecheck %s --check-prefix=NINE

// The wgmma scheme's K split over a cluster (emit_wgmma.py): NT f16 128x256x512, 8 K steps.
// cluster-k=2: 64x48 tiles (the plan's choice among those that split), clusters of 2 along x
// (nvvm.cluster_dim), the grid's x twice the N tiles: x / 2 is the N tile, x % 2 the rank,
// whose 4 K steps start at rank * 256. The rows of warp w are summed by workgroup w % 2: once
// the cluster syncs (every workgroup's operand tiles free), the other workgroup's warp stores
// its partial sums into the summing one's LDS (mapa, st.shared::cluster), the cluster syncs
// again, the summing warps add them from their own LDS, and only they store the output.
// Unasked (cluster-k=0, the default), no plan splits: planner.auto_split splits none of 8 K steps.
// 8 K steps do not split 3 ways: a located error at each product, no kernel.
// THREE: wgmma_cluster.mlir:{{[0-9]+}}:8: error: ldsopt-matmul-lds: cluster-k=3: no wgmma tiling splits this product's K steps over 3 workgroups (planner.split_fits)
// A cluster of more than 8 (the portable most) is refused with the option.
// NINE: <pass-pipeline>:1:{{[0-9]+}}: error: option 'cluster-k' of pass 'ldsopt-matmul-lds' takes 0..8; got '9'
// TWO-LABEL: func.func @nt_f16_split
// TWO-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// TWO:         %[[X:.+]] = gpu.block_id  x upper_bound 12
// TWO:         %[[RANK:.+]] = arith.remui %[[X]], %c2
// TWO:         %[[TILE:.+]] = arith.divui %[[X]], %c2
// TWO:         %[[BASE:.+]] = arith.muli %[[RANK]], %c256
// TWO:         scf.for
// TWO:           nvvm.wgmma.mma_async
// TWO:         nvvm.wgmma.wait.group.sync.aligned 0
// TWO:         %[[SUMS:.+]] = arith.cmpi eq, %{{.+}}, %{{.+}} : i32
// TWO:         nvvm.cluster.arrive
// TWO-NEXT:    nvvm.cluster.wait
// TWO:         scf.if %[[SUMS]] {
// TWO:         } else {
// TWO:           llvm.inline_asm has_side_effects "{\0A.reg .b32 remote;\0Amapa.shared::cluster.u32 remote, $0, $1;\0Ast.shared::cluster.v4.f32
// TWO:         nvvm.cluster.arrive
// TWO-NEXT:    nvvm.cluster.wait
// TWO:         scf.if %[[SUMS]] -> (!llvm.struct
// TWO:           llvm.inline_asm has_side_effects "ld.shared.v4.f32
// TWO:           arith.addf
// TWO:         scf.if %[[SUMS]] {
// TWO:           vector.store
// NONE-LABEL: func.func @nt_f16_split
// NONE-NOT:     nvvm.cluster_dim
// NONE:         return
func.func @nt_f16_split() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128x512xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x512xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<128x256xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<128x512xf16, #hal.descriptor_type<storage_buffer>> -> tensor<128x512xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<256x512xf16, #hal.descriptor_type<storage_buffer>> -> tensor<256x512xf16>
  %5 = tensor.empty() : tensor<128x256xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<128x512xf16>, tensor<256x512xf16>) outs(%6 : tensor<128x256xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<128x256xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<128x256xf32> into memref<128x256xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// 2048x2048 (128 tiles of 128x256): split as told, whatever the SMs.
// NONE-LABEL: func.func @nt_f16_fills
// NONE-NOT:     nvvm.cluster_dim
// NONE:         return
// TWO-LABEL: func.func @nt_f16_fills
// TWO-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
func.func @nt_f16_fills() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2048x512xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2048x512xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2048x2048xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<2048x512xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2048x512xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<2048x512xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2048x512xf16>
  %5 = tensor.empty() : tensor<2048x2048xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<2048x512xf16>, tensor<2048x512xf16>) outs(%6 : tensor<2048x2048xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<2048x2048xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<2048x2048xf32> into memref<2048x2048xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// FFN down with K x N weights, 512x768x3072: unsplit its tiles are 64x64 with 48 K steps, so
// the default (planner.auto_split) splits it 2 ways on 64x128 tiles: 8 x 6 tiles, x holding
// each N tile's 2 workgroups (12), the K steps of each half at rank * 1536.
// NONE-LABEL: func.func @nn_f16_ffn_down
// NONE-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
// NONE:         %[[X:.+]] = gpu.block_id  x upper_bound 12
// NONE:         %[[RANK:.+]] = arith.remui %[[X]], %c2
// NONE:         arith.muli %[[RANK]], %c1536
// NONE:         nvvm.wgmma.mma_async
// NONE:         nvvm.cluster.arrive
// TWO-LABEL: func.func @nn_f16_ffn_down
// TWO-SAME:    nvvm.cluster_dim = array<i32: 2, 1, 1>
func.func @nn_f16_ffn_down() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<512x3072xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3072x768xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<512x768xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<512x3072xf16, #hal.descriptor_type<storage_buffer>> -> tensor<512x3072xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<3072x768xf16, #hal.descriptor_type<storage_buffer>> -> tensor<3072x768xf16>
  %5 = tensor.empty() : tensor<512x768xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<512x768xf32>) -> tensor<512x768xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<512x3072xf16>, tensor<3072x768xf16>) outs(%6 : tensor<512x768xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<512x768xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<512x768xf32> into memref<512x768xf32, #hal.descriptor_type<storage_buffer>>
  return
}
