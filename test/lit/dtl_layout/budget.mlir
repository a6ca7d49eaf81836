// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-dtl-layout{k-bytes=128 stages=3 k-pack=2}, ldsopt-matmul-lds{k-bytes=128 stages=3 k-pack=2})' | filecheck %s

// Both operands' layouts fit the LDS budget together: NT f16 4096^3 plans 128x128 tiles of 64
// K, three LDS tiles each (96 KB unpadded, of the 99 KB a workgroup may take on CUDA), at
// k-pack=2 (16-byte fragment reads; the default's ldmatrix plans pad no layout here); A's
// padded layout takes what is left, so B's is one without padding. Each operand's budget
// counts the other one as already rewritten (before, both were sized against the other's
// unpadded tiles and ldsopt-matmul-lds then refused the recorded staging: "needs more LDS
// than the target has").
// CHECK-LABEL: func.func @nt_f16_4096
// CHECK-SAME:    ldsopt.dtl = {A = "direct perm<16,2>+block_pad<512,32>", B = "direct none"}
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-dtl-layout", "ldsopt-matmul-lds"]
// CHECK:         nvgpu.mma.sync

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
