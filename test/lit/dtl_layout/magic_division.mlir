// Static divisions by non-powers of two are magic multiply-shifts, q = (x * magic) >> shift, with
// the dividend range proven exact (ldsopt.magic_div) by the pass. matmul_lds plans 64 / 128 tiles
// by default, so the thread -> (row, col) split is a shift there; its `tiles` option gives others
// (TILES below); a layout given by hand with blocks of 3 wave loads (384 f16 = 768 B, still the M0 rule) or a
// rotation every 3 rows divides by 192, 384 and 3.
// RUN: lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-dtl-layout{layout=block_pad<384,16> tiles=64x64x4x4}, ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s
// RUN: lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-dtl-layout{layout=rotation<3,8,4> tiles=64x64x4x4}, ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s --check-prefix=ROT
// RUN: lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-dtl-layout{tiles=96x96x3x4}, ldsopt-matmul-lds{tiles=96x96x3x4})' | filecheck %s --check-prefix=TILES

// Chunk c (< 1024) goes to 2 c + (c / 192) * 16: c / 192 = (c * 683) >> 17, exact for c < 1024.
// CHECK-LABEL: func.func @nn_f16
// CHECK-SAME:    A = "direct block_pad<384,16>"
// CHECK:         %[[TID:.+]] = gpu.thread_id x
// CHECK:         %[[M:.+]] = arith.muli %[[TID]], %c683 : index
// CHECK-NEXT:    %[[BLK:.+]] = arith.shrui %[[M]], %c17 : index
// CHECK-NEXT:    %[[U:.+]] = arith.muli %[[TID]], %c2 : index
// CHECK-NEXT:    %[[PADS:.+]] = arith.muli %[[BLK]], %c16 : index
// CHECK-NEXT:    %[[DEST:.+]] = arith.addi %[[PADS]], %[[U]] : index
// CHECK:         amdgpu.gather_to_lds %{{.+}}, %{{.+}}[%c0, %[[DEST]]] : vector<2xf16>
// The fragment reads (B's scalar ones, then A's vectors): element e (< 2048) at e + (e / 384) * 16,
// e / 384 = (e * 683) >> 18.
// CHECK:         scf.for
// CHECK:           %[[EM:.+]] = arith.muli %[[E:[^,]+]], %c683 : index
// CHECK-NEXT:      %[[EB:.+]] = arith.shrui %[[EM]], %c18 : index
// CHECK-NEXT:      %[[EP:.+]] = arith.muli %[[EB]], %c16 : index
// CHECK-NEXT:      %[[OFF:.+]] = arith.addi %[[EP]], %[[E]] : index
// CHECK:           vector.transfer_read %{{.+}}[%{{.+}}, %[[OFF]]]{{.*}} vector<1xf16>
// CHECK:           vector.load %{{.+}} alignment = 8 : memref<2x2128xf16, #gpu.address_space<workgroup>>, vector<4xf16>

// The rotation of row r is r / 3 = (r * 43) >> 7 (r < 64).
// ROT-LABEL: func.func @nn_f16
// ROT-SAME:    A = "direct rotation<3,8,4>"
// ROT:         %[[ROW:.+]] = arith.shrui %{{.+}}, %c4 : index
// ROT:         %[[RM:.+]] = arith.muli %[[ROW]], %c43 : index
// ROT-NEXT:    %[[R3:.+]] = arith.shrui %[[RM]], %c7 : index
// ROT-NEXT:    arith.andi %[[R3]], %c7 : index
// A 96x96 tile (tiles=96x96x3x4: 768 threads, 12 waves): B's rows of 96 f16 are 48 lanes, so
// chunk c = tid (< 1536) is split by c / 48 = (c * 683) >> 15 and c - 48 (c / 48); its rows are
// permuted in blocks of 8 (S = 4, S' = 2) from that quotient.
// TILES-LABEL: func.func @nn_f16
// TILES-SAME:    B = "direct perm<8,4>"
// TILES:         %[[TID:.+]] = gpu.thread_id x upper_bound 768
// TILES:         memref.memory_space_cast %{{.+}} : memref<64x160xf16
// TILES-NEXT:    %[[M:.+]] = arith.muli %[[TID]], %c683 : index
// TILES-NEXT:    %[[ROW:.+]] = arith.shrui %[[M]], %c15 : index
// TILES-NEXT:    %[[R48:.+]] = arith.muli %[[ROW]], %c48 : index
// TILES-NEXT:    %[[LANE:.+]] = arith.subi %[[TID]], %[[R48]] : index
// TILES-NEXT:    arith.muli %[[LANE]], %c2 : index
// TILES-NEXT:    arith.shrui %[[ROW]], %c3 : index
// TILES-NEXT:    arith.andi %[[ROW]], %c7 : index
// TILES:         amdgpu.gather_to_lds
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
