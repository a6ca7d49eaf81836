// RUN: lds-opt %s --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=128x256x8x16})' \
// RUN:   | filecheck %s
// RUN: lds-opt %s --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=128x128x8x8})' \
// RUN:   | filecheck %s --check-prefix=STAGE

// Quad stores (ldsopt/matmul/quad_stores.py): NN f16 256x512x512 with the f16 cast, on 128x256
// tiles whose 4 LDS tiles leave no room for the output stage. Each lane holds 2 f16 of every
// 8-column block; the pieces of 4 blocks of a row go through 3 shuffles by lane xor 1, 2, 3
// (the lane's own piece kept at xor 0), which piece a lane sends and which slot it fills chosen
// by its q = thread % 4, and leave as one 16-byte store a lane: 16 of them, 48 shuffles, and no
// 4-byte store of the output. On 128x128 tiles the output stage fits and takes the pieces.
// CHECK-LABEL: func.func @nn_f16_out_quads
// CHECK:         %[[Q:.+]] = arith.remui %thread_id_x, %c4 : index
// CHECK:         %[[IS0:.+]] = arith.cmpi eq, %[[Q]], %c0 : index
// CHECK:         vector.bitcast %{{.+}} : vector<2xf16> to vector<1xi32>
// CHECK:         gpu.shuffle xor %{{.+}}, %c1_i32, %c32_i32 : i32
// CHECK:         gpu.shuffle xor %{{.+}}, %c2_i32, %c32_i32 : i32
// CHECK:         gpu.shuffle xor %{{.+}}, %c3_i32, %c32_i32 : i32
// CHECK:         %[[WIDE:.+]] = vector.bitcast %{{.+}} : vector<4xi32> to vector<8xf16>
// CHECK:         vector.store %[[WIDE]], %{{.+}} alignment = 16 : memref<256x512xf16, {{.+}}>, vector<8xf16>
// CHECK-COUNT-15: vector.store %{{.+}} alignment = 16 : memref<256x512xf16, {{.+}}>, vector<8xf16>
// CHECK-NOT:     vector.store %{{.+}} : memref<256x512xf16, {{.+}}>, vector<2xf16>
// CHECK:         return
// STAGE-LABEL: func.func @nn_f16_out_quads
// STAGE-NOT:     gpu.shuffle
// STAGE:         ldsopt.output_stage
// STAGE-NOT:     gpu.shuffle
// STAGE:         return
func.func @nn_f16_out_quads() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x512xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<512x512xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<256x512xf16, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<256x512xf16, #hal.descriptor_type<storage_buffer>> -> tensor<256x512xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<512x512xf16, #hal.descriptor_type<storage_buffer>> -> tensor<512x512xf16>
  %5 = tensor.empty() : tensor<256x512xf16>
  %6 = tensor.empty() : tensor<256x512xf32>
  %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<256x512xf16>, tensor<512x512xf16>) outs(%7 : tensor<256x512xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, promote_operands = [0, 1], reduction = [0, 0, 8], subgroup = [2, 4, 0], workgroup = [64, 64, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %10 = arith.extf %in : f16 to f32
    %11 = arith.extf %in_0 : f16 to f32
    %12 = arith.mulf %10, %11 : f32
    %13 = arith.addf %out, %12 : f32
    linalg.yield %13 : f32
  } -> tensor<256x512xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<256x512xf32>) outs(%5 : tensor<256x512xf16>) {
  ^bb0(%in: f32, %out: f16):
    %10 = arith.truncf %in : f32 to f16
    linalg.yield %10 : f16
  } -> tensor<256x512xf16>
  iree_codegen.store_to_buffer %9, %2 : tensor<256x512xf16> into memref<256x512xf16, #hal.descriptor_type<storage_buffer>>
  return
}
