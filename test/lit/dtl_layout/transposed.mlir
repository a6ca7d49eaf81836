// After ldsopt-inthread-transpose, B (N-contiguous in memory) is staged K-contiguous in LDS by a
// transpose in registers, and both operands' fragment reads take two K steps (k_pack 2: 8
// consecutive K a lane). DTL cannot transpose, so B keeps that staging; A goes direct, in the
// rotation the bank model picks for its 16-byte reads.
// RUN: lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose{tiles=128x128x8x8}, ldsopt-dtl-layout{tiles=128x128x8x8}, ldsopt-matmul-lds{tiles=128x128x8x8})' | filecheck %s

// CHECK-LABEL: func.func @transposed
// CHECK-SAME:    ldsopt.dtl = {A = "direct rotation<2,4,8>", B = "left alone: its LDS layout is not its global order as planned (DTL cannot transpose)"}
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {copy = "direct", dims = ["m", "k"], {{.*}} k_pack = 2 : i64
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}} register_transpose = true
// CHECK:         amdgpu.gather_to_lds {{.*}} memref<128x64xf16
// CHECK-NOT:     amdgpu.gather_to_lds {{.*}} memref<64x256xf16
// CHECK:         vector.transpose
func.func @transposed() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x256xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<128x256xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<128x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<128x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x256xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x256xf16>
  %5 = tensor.empty() : tensor<128x256xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<128x64xf16>, tensor<64x256xf16>) outs(%6 : tensor<128x256xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
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
