// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-inthread-transpose{tiles=64x64x4x4})' | filecheck %s --check-prefix=GAIN
// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true tiles=64x64x4x4}, ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s

// TN bf16, 64x64x64 on lavapipe (subgroups of 8, vectors of at most 4): FMA with 4x4
// micro-tiles, whose fragments are 4-wide reads along M (A) and N (B) as planned and would be
// 4-wide reads along K transposed: no gain, so the pass leaves both operands alone.
// GAIN-LABEL: func.func @tn_bf16_fma
// GAIN-NOT:     ldsopt.staging
// GAIN:         return
// Forced (to run the transposed staging where there are no matrix cores): 32 x 64 tiles, 2 K
// rows per thread as planned; each thread reads 4 K rows of vector<2xbf16> (the vector shrinks
// so that 256 threads take one 4x2 chunk each), transposes the 4x2 register tile and writes its
// 2 columns of 4 K-consecutive elements to the K-contiguous LDS (64 x 32, rows padded by 4, the
// bank model's pick among layouts whose global reads stay coalesced: consecutive threads along M);
// the FMA fragments are vector<4xbf16> reads along K.
// CHECK-LABEL: func.func @tn_bf16_fma
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-inthread-transpose", "ldsopt-matmul-lds"]
// CHECK:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "m"], fragment = "fma 4x4", lds_order = [1, 0], lds_shape = [2, 64, 36], operand = "A", pad = 4 : i64, rake = 4 : i64, read_vector = 4 : i64, register_transpose = true, swizzle = "none", thread_map = "(32,8):(2,256)", threads = 256 : i64, tile = [32, 64], vector = 2 : i64}} : memref<2x64x36xbf16, #gpu.address_space<workgroup>>
// CHECK:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}} lds_order = [0, 1], lds_shape = [2, 64, 32], {{.*}} register_transpose = true, {{.*}}} : memref<2x64x32xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: vector.transfer_read {{.*}} : memref<64x64xbf16, #hal.descriptor_type<storage_buffer>>, vector<2xbf16>
// CHECK:         vector.transpose %{{.+}}, [1, 0] : vector<4x2xbf16> to vector<2x4xbf16>
// CHECK:         vector.transfer_write {{.*}}, %[[LA]][{{.*}} : vector<4xbf16>, memref<2x64x36xbf16, #gpu.address_space<workgroup>>
// CHECK:         vector.transfer_write {{.*}}, %[[LA]][{{.*}} : vector<4xbf16>, memref<2x64x36xbf16, #gpu.address_space<workgroup>>
// CHECK:         scf.for
// CHECK:           vector.transfer_read %[[LA]][{{.*}} : memref<2x64x36xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK:           vector.transfer_read %[[LB]][{{.*}} : memref<2x64x32xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK:           vector.fma
func.func @tn_bf16_fma() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xbf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xbf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<64x64xbf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xbf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x64xbf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xbf16>
  %5 = tensor.empty() : tensor<64x64xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%6 : tensor<64x64xf32>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: f32):
    %8 = arith.extf %in : bf16 to f32
    %9 = arith.extf %in_0 : bf16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @tn_bf16_fma {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
