// A `tiles` option that is not BMxBNxTMxTN is refused with the reason where the pipeline is
// parsed, by ldsopt-dtl-layout as by ldsopt-matmul-lds (one parser). A tiling whose threads are
// not whole subgroups (1x1x1x1: one thread, 32x32x8x8: 16 threads on CUDA's warps of 32) fits
// no target: the error is at the dispatch.
// RUN: not lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-dtl-layout{tiles=96x96x3})' 2>&1 | filecheck %s --check-prefix=DTL
// RUN: not lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=96x96x3})' 2>&1 | filecheck %s --check-prefix=MM
// RUN: not lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=1x1x1x1})' 2>&1 | filecheck %s --check-prefix=ONE
// RUN: not lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=32x32x8x8})' 2>&1 | filecheck %s --check-prefix=HALF
// DTL: <pass-pipeline>:1:34: error: option 'tiles' of pass 'ldsopt-dtl-layout' takes BMxBNxTMxTN,... with TM dividing BM and TN dividing BN; got '96x96x3': tile '96x96x3' is not BMxBNxTMxTN
// DTL-NOT: Traceback
// MM: <pass-pipeline>:1:34: error: option 'tiles' of pass 'ldsopt-matmul-lds' takes
// ONE: bad_tiles.mlir:{{[0-9]+}}:{{[0-9]+}}: error: ldsopt-matmul-lds: no tiling of tiles=1x1x1x1 fits the target's threads (whole subgroups of 64, at most 1024), vectors and LDS
// HALF: error: ldsopt-matmul-lds: no tiling of tiles=32x32x8x8 fits the target's threads (whole subgroups of 32, at most 1024)
// HALF-NOT: internal error

func.func @nn_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x160xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<96x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x160xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x160xf16>
  %5 = tensor.empty() : tensor<96x160xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<96x160xf32>) -> tensor<96x160xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<96x64xf16>, tensor<64x160xf16>) outs(%6 : tensor<96x160xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<96x160xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<96x160xf32> into memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  return
}
