// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose)' | filecheck %s --check-prefix=REC
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose, ldsopt-matmul-lds)' | filecheck %s

// NN f16, 256x256x64 on gfx942: 128x128 tiles, BK = 32, 256 threads, MFMA 16x16x16. B (K x N,
// N-contiguous) was planned as 8-wide reads along N, 2 K rows per thread, stored N-contiguous and
// read by the MFMA B fragments one element at a time (4 K rows). The pass records B's new staging
// on the root op: the thread rake (4 K rows of 4 elements along N per thread: thread_map (32,8):(4,512)),
// the register transpose, the LDS K-contiguous (lds_order [0, 1], 128 x 32) with the address map
// the bank model picks over the first wave's LDS writes and fragment reads: rows r ^ (r / 4 % 2)
// (row_xor 4: the 4 rows a lane writes and those of the next lane fill both halves of the banks)
// then the rotating swizzle <4,1,8>; extra cycles (writes + reads): 240 + 28 with neither, 16 + 0
// with the swizzle alone (cf64297's choice), 0 + 0 with both. Fragment reads of 4. A is
// K-contiguous already: not recorded.
// REC-LABEL: func.func @nn_f16
// REC:         linalg.generic
// REC-SAME:      ldsopt.staged_by = ["ldsopt-inthread-transpose"]
// REC-SAME:      ldsopt.staging = {B = {dims = ["k", "n"], fragment = "MFMA_F32_16x16x16_F16", lds_order = [0, 1], lds_shape = [2, 128, 32], operand = "B", pad = 0 : i64, rake = 4 : i64, read_vector = 4 : i64, register_transpose = true, row_xor = 4 : i64, swizzle = "rotating<4,1,8>", thread_map = "(32,8):(4,512)", threads = 256 : i64, tile = [32, 128], vector = 4 : i64}}
// The kernel: each thread reads 4 rows of vector<4xf16> along N, transposes the 4x4 register tile,
// writes its 4 columns (4 K-consecutive f16, 64 bits each) to 4 LDS rows (N) at the swizzled K
// column; the MFMA B fragments are single vector<4xf16> reads at the same swizzle, fed to the MFMAs
// as read.
// CHECK-LABEL: func.func @nn_f16
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-inthread-transpose", "ldsopt-matmul-lds"]
// CHECK:         %[[B:.+]] = hal.interface.binding.subspan {{.*}} binding(1)
// CHECK:         %[[LA:.+]] = memref.alloc() {ldsopt.staging = {dims = ["m", "k"], {{.*}} rake = 1 : i64, read_vector = 4 : i64, register_transpose = false, {{.*}}} : memref<2x128x40xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[LB:.+]] = memref.alloc() {ldsopt.staging = {dims = ["k", "n"], {{.*}} rake = 4 : i64, {{.*}} register_transpose = true, row_xor = 4 : i64, swizzle = "rotating<4,1,8>", {{.*}}} : memref<2x128x32xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[R0:.+]] = vector.transfer_read %[[B]][{{.+}}]{{.*}} : memref<64x256xf16, {{.*}}>, vector<4xf16>
// CHECK:         %[[R1:.+]] = vector.transfer_read %[[B]][{{.+}}]{{.*}} : memref<64x256xf16, {{.*}}>, vector<4xf16>
// CHECK:         %[[R2:.+]] = vector.transfer_read %[[B]][{{.+}}]{{.*}} : memref<64x256xf16, {{.*}}>, vector<4xf16>
// CHECK:         %[[R3:.+]] = vector.transfer_read %[[B]][{{.+}}]{{.*}} : memref<64x256xf16, {{.*}}>, vector<4xf16>
// CHECK:         vector.insert %[[R0]], %{{.+}} [0] : vector<4xf16> into vector<4x4xf16>
// CHECK:         %[[TILE:.+]] = vector.insert %[[R3]], %{{.+}} [3] : vector<4xf16> into vector<4x4xf16>
// CHECK:         %[[T:.+]] = vector.transpose %[[TILE]], [1, 0] : vector<4x4xf16> to vector<4x4xf16>
// CHECK:         %[[C0:.+]] = vector.extract %[[T]][0] : vector<4xf16> from vector<4x4xf16>
// CHECK:         %[[C3:.+]] = vector.extract %[[T]][3] : vector<4xf16> from vector<4x4xf16>
// CHECK:         %[[H:.+]] = arith.shrui %[[ROW:.+]], %c2 : index
// CHECK-NEXT:    %[[H1:.+]] = arith.andi %[[H]], %c1 : index
// CHECK-NEXT:    %[[XROW:.+]] = arith.xori %[[ROW]], %[[H1]] : index
// CHECK-NEXT:    arith.remui %[[XROW]], %c8 : index
// CHECK:         arith.remui %{{.+}}, %c32 : index
// CHECK-NEXT:    %[[SW:.+]] = arith.xori %{{.+}}, %{{.+}} : index
// CHECK-NEXT:    vector.transfer_write %[[C0]], %[[LB]][%c0, %[[XROW]], %[[SW]]] {in_bounds = [true]} : vector<4xf16>, memref<2x128x32xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-2: vector.transfer_write {{.*}} : vector<4xf16>, memref<2x128x32xf16, #gpu.address_space<workgroup>>
// CHECK:         vector.transfer_write %[[C3]], %[[LB]]
// CHECK:         gpu.barrier
// CHECK:         scf.for
// CHECK:           vector.transpose {{.*}} : vector<4x4xf16> to vector<4x4xf16>
// CHECK:           %[[FA:.+]] = vector.transfer_read %[[LA]]{{.*}} vector<4xf16>
// CHECK:           arith.remui %{{.+}}, %c32 : index
// CHECK-NEXT:      %[[KSW:.+]] = arith.xori %{{.+}}, %{{.+}} : index
// CHECK-NEXT:      %[[PAD:.+]] = arith.constant 0.0
// CHECK-NEXT:      %[[FB:.+]] = vector.transfer_read %[[LB]][%{{.+}}, %{{.+}}, %[[KSW]]], %[[PAD]] {in_bounds = [true]} : memref<2x128x32xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK-NOT:       vector<1xf16>
// CHECK:           amdgpu.mfma 16x16x16 %{{.+}} * %[[FB]] + %{{.+}} : vector<4xf16>, vector<4xf16>, vector<4xf32>
// CHECK:           vector.transfer_write {{.*}} : vector<4xf16>, memref<2x128x32xf16, #gpu.address_space<workgroup>>
// CHECK:           gpu.barrier
// CHECK-NEXT:      scf.yield
func.func @nn_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x256xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<256x256xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<256x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<256x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x256xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x256xf16>
  %5 = tensor.empty() : tensor<256x256xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<256x64xf16>, tensor<64x256xf16>) outs(%6 : tensor<256x256xf32>) {
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
iree_codegen.dispatch_config @nn_f16 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// TT f16: A stored K x M (M-contiguous) is raked and transposed into a K-contiguous LDS
// (lds_order [1, 0] for A); B (N x K) is K-contiguous already and keeps its staging. A's MFMA
// fragments become single vector<4xf16> reads.
// REC-LABEL: func.func @tt_f16
// REC:         ldsopt.staging = {A = {dims = ["k", "m"], fragment = "MFMA_F32_16x16x16_F16", lds_order = [1, 0], lds_shape = [2, 128, 32], operand = "A", pad = 0 : i64, rake = 4 : i64, read_vector = 4 : i64, register_transpose = true, row_xor = 4 : i64, swizzle = "rotating<4,1,8>", thread_map = "(32,8):(4,512)", threads = 256 : i64, tile = [32, 128], vector = 4 : i64}}
// REC-NOT:     operand = "B"
// CHECK-LABEL: func.func @tt_f16
// CHECK:         %[[LA:.+]] = memref.alloc() {ldsopt.staging = {dims = ["k", "m"], {{.*}} register_transpose = true, {{.*}}} : memref<2x128x32xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[LB:.+]] = memref.alloc() {ldsopt.staging = {dims = ["n", "k"], {{.*}} register_transpose = false, {{.*}}} : memref<2x128x40xf16, #gpu.address_space<workgroup>>
// CHECK:         vector.transpose {{.*}} : vector<4x4xf16> to vector<4x4xf16>
// CHECK:         scf.for
// CHECK:           %[[FA:.+]] = vector.transfer_read %[[LA]]{{.*}} : memref<2x128x32xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK:           %[[FB:.+]] = vector.transfer_read %[[LB]]{{.*}} : memref<2x128x40xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK:           amdgpu.mfma 16x16x16 %[[FA]] * %[[FB]]
func.func @tt_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x256xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<256x256xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<64x256xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x256xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<256x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<256x64xf16>
  %5 = tensor.empty() : tensor<256x256xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<64x256xf16>, tensor<256x64xf16>) outs(%6 : tensor<256x256xf32>) {
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
iree_codegen.dispatch_config @tt_f16 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// NT f16: both operands K-contiguous in global memory already: nothing recorded, no transpose.
// REC-LABEL: func.func @nt_f16
// REC-NOT:     ldsopt.staging
// REC:         return
// CHECK-LABEL: func.func @nt_f16
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK-NOT:     vector.transpose
// CHECK:         return
func.func @nt_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<256x256xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<256x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<256x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<256x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<256x64xf16>
  %5 = tensor.empty() : tensor<256x256xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<256x64xf16>, tensor<256x64xf16>) outs(%6 : tensor<256x256xf32>) {
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
iree_codegen.dispatch_config @nt_f16 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// NN f16, 96x160x64: 64x64 tiles; B's 32 x 64 tile in 8-wide reads spreads its 32 K rows over 32
// threads along K, one row per thread: the K tile per thread is too small to transpose. B stays
// N-contiguous and its fragments are read one element at a time.
// REC-LABEL: func.func @nn_f16_small_k_tile
// REC-NOT:     ldsopt.staging
// REC:         return
// CHECK-LABEL: func.func @nn_f16_small_k_tile
// CHECK:         memref.alloc() {ldsopt.staging = {dims = ["k", "n"], {{.*}} rake = 1 : i64, read_vector = 1 : i64, register_transpose = false, {{.*}}} : memref<2x32x72xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     vector.transpose
// CHECK:         vector.transfer_read {{.*}} : memref<2x32x72xf16, #gpu.address_space<workgroup>>, vector<1xf16>
func.func @nn_f16_small_k_tile() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x160xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<96x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x160xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x160xf16>
  %5 = tensor.empty() : tensor<96x160xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<96x160xf32>) -> tensor<96x160xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<96x64xf16>, tensor<64x160xf16>) outs(%6 : tensor<96x160xf32>) {
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
iree_codegen.dispatch_config @nn_f16_small_k_tile {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// NN f32 on gfx942: MFMA 16x16x4 takes one K element per lane, so a K-contiguous LDS would not
// widen its fragment reads: unchanged.
// REC-LABEL: func.func @nn_f32
// REC-NOT:     ldsopt.staging
// REC:         return
// CHECK-LABEL: func.func @nn_f32
// CHECK:         memref.alloc() {ldsopt.staging = {dims = ["k", "n"], fragment = "MFMA_F32_16x16x4_F32", {{.*}} register_transpose = false, {{.*}}}
// CHECK-NOT:     vector.transpose
// CHECK:         amdgpu.mfma 16x16x4
func.func @nn_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x256xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<256x256xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<256x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<256x64xf32>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x256xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x256xf32>
  %5 = tensor.empty() : tensor<256x256xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<256x64xf32>, tensor<64x256xf32>) outs(%6 : tensor<256x256xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %10 = arith.mulf %in, %in_0 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<256x256xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<256x256xf32> into memref<256x256xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @nn_f32 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
