// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose{tiles=128x128x8x8})' | filecheck %s --check-prefix=REC
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose{tiles=128x128x8x8}, ldsopt-matmul-lds{tiles=128x128x8x8})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose{tiles=64x64x4x4 k-bytes=64})' | filecheck %s --check-prefix=SREC
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose{tiles=64x64x4x4 k-bytes=64}, ldsopt-matmul-lds{tiles=64x64x4x4 k-bytes=64})' | filecheck %s --check-prefix=SMALL
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose{tiles=64x64x4x4})' | filecheck %s --check-prefix=KSTEP

// NN f16, 256x256x64 on gfx942: 128x128 tiles, BK = 32, 256 threads, MFMA 16x16x16. B (K x N,
// N-contiguous) was planned as 8-wide reads along N, 2 K rows per thread, stored N-contiguous and
// read by the MFMA B fragments one element at a time (4 K rows). The pass records B's new staging
// on the root op: the thread rake (4 K rows of 4 elements along N per thread, consecutive
// threads taking K rows 0-3 and 4-7 of one N group before the next: lane_rows 2, thread_map
// (2,32,4):(512,4,1024)), the register transpose, the LDS K-contiguous (lds_order [0, 1],
// 128 x 32), and the address map the bank model picks over the first wave's LDS writes and
// fragment reads: rows r ^ (r / 4 % 2) (row_xor 4) then the rotating swizzle <8,2,4>, whose unit
// is the 8-element read. With both operands K-contiguous, the fragment reads take two MFMA K
// steps (k_pack 2), their K slots in k_order (4,4,2):(1,8,4), so that a lane's 8 slots are 8
// consecutive K, one 16-byte read; A, K-contiguous already, is restaged for those reads (its
// pad) and recorded too.
// REC-LABEL: func.func @nn_f16
// REC:         linalg.generic
// REC-SAME:      ldsopt.staged_by = ["ldsopt-inthread-transpose"]
// REC-SAME:      ldsopt.staging = {A = {dims = ["m", "k"], fragment = "MFMA_F32_16x16x16_F16", k_order = "(4,4,2):(1,8,4)", k_pack = 2 : i64, lds_order = [1, 0], lds_shape = [2, 128, 40], operand = "A", pad = 8 : i64, rake = 1 : i64, read_vector = 8 : i64, register_transpose = false, swizzle = "none", thread_map = "(4,128):(8,32)", threads = 256 : i64, tile = [128, 32], vector = 8 : i64}, B = {dims = ["k", "n"], fragment = "MFMA_F32_16x16x16_F16", k_order = "(4,4,2):(1,8,4)", k_pack = 2 : i64, lane_rows = 2 : i64, lds_order = [0, 1], lds_shape = [2, 128, 32], operand = "B", pad = 0 : i64, rake = 4 : i64, read_vector = 8 : i64, register_transpose = true, row_xor = 4 : i64, swizzle = "rotating<8,2,4>", thread_map = "(2,32,4):(512,4,1024)", threads = 256 : i64, tile = [32, 128], vector = 4 : i64}}
// The kernel: each thread reads 4 rows of vector<4xf16> along N, transposes the 4x4 register tile,
// writes its 4 columns (4 K-consecutive f16, 64 bits each, stated 8-byte aligned) to 4 LDS rows
// (N) at the swizzled K column; each MFMA B fragment read is one 16-byte vector.load, split into
// the registers of the two K steps, as is each A fragment read.
// CHECK-LABEL: func.func @nn_f16
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-inthread-transpose", "ldsopt-matmul-lds"]
// CHECK:         %[[B:.+]] = hal.interface.binding.subspan {{.*}} binding(1)
// CHECK:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], {{.*}} k_pack = 2 : i64, {{.*}} rake = 1 : i64, read_vector = 8 : i64, register_transpose = false, {{.*}}} : memref<2x128x40xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}} k_pack = 2 : i64, {{.*}} rake = 4 : i64, {{.*}} register_transpose = true, row_xor = 4 : i64, swizzle = "rotating<8,2,4>", {{.*}}} : memref<2x128x32xf16, #gpu.address_space<workgroup>>
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
// CHECK:         arith.remui %{{.+}}, %c32 : index
// CHECK-NEXT:    %[[SW:.+]] = arith.xori %{{.+}}, %{{.+}} : index
// CHECK-NEXT:    vector.store %[[C0]], %[[LB]][%c0, %[[XROW]], %[[SW]]] alignment = 8 : memref<2x128x32xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK-COUNT-2: vector.store {{.*}} : memref<2x128x32xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK:         vector.store %[[C3]], %[[LB]]
// CHECK:         gpu.barrier
// CHECK:         scf.for
// CHECK:           vector.transpose {{.*}} : vector<4x4xf16> to vector<4x4xf16>
// CHECK:           %[[FB:.+]] = vector.load %[[LB]]{{.*}} alignment = 16 : memref<2x128x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-NEXT:      %[[FB0:.+]] = vector.extract_strided_slice %[[FB]] offsets = [0], sizes = [4], strides = [1] : vector<8xf16> to vector<4xf16>
// CHECK-NEXT:      %[[FB1:.+]] = vector.extract_strided_slice %[[FB]] offsets = [4], sizes = [4], strides = [1] : vector<8xf16> to vector<4xf16>
// CHECK-NOT:       vector<1xf16>
// CHECK:           vector.load %[[LA]]{{.*}} alignment = 16 : memref<2x128x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:           amdgpu.mfma 16x16x16 %{{.+}} * %[[FB0]] + %{{.+}} : vector<4xf16>, vector<4xf16>, vector<4xf32>
// CHECK:           amdgpu.mfma 16x16x16 %{{.+}} * %[[FB1]] + %{{.+}} : vector<4xf16>, vector<4xf16>, vector<4xf32>
// CHECK:           vector.store {{.*}} : memref<2x128x32xf16, #gpu.address_space<workgroup>>, vector<4xf16>
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
// (lds_order [1, 0] for A); B (N x K) is K-contiguous already and keeps its layout, restaged for
// the reads of two K steps. A's MFMA fragments become single vector<8xf16> reads of two steps.
// REC-LABEL: func.func @tt_f16
// REC:         ldsopt.staging = {A = {dims = ["k", "m"], fragment = "MFMA_F32_16x16x16_F16", k_order = "(4,4,2):(1,8,4)", k_pack = 2 : i64, lane_rows = 2 : i64, lds_order = [1, 0], lds_shape = [2, 128, 32], operand = "A", pad = 0 : i64, rake = 4 : i64, read_vector = 8 : i64, register_transpose = true, row_xor = 4 : i64, swizzle = "rotating<8,2,4>", thread_map = "(2,32,4):(512,4,1024)", threads = 256 : i64, tile = [32, 128], vector = 4 : i64}, B = {dims = ["n", "k"], {{.*}} k_pack = 2 : i64, {{.*}} register_transpose = false
// CHECK-LABEL: func.func @tt_f16
// CHECK:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "m"], {{.*}} register_transpose = true, {{.*}}} : memref<2x128x32xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["n", "k"], {{.*}} register_transpose = false, {{.*}}} : memref<2x128x40xf16, #gpu.address_space<workgroup>>
// CHECK:         vector.transpose {{.*}} : vector<4x4xf16> to vector<4x4xf16>
// CHECK:         scf.for
// CHECK:           %[[FB:.+]] = vector.load %[[LB]]{{.*}} : memref<2x128x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:           %[[FB0:.+]] = vector.extract_strided_slice %[[FB]] offsets = [0]
// CHECK:           %[[FA:.+]] = vector.load %[[LA]]{{.*}} : memref<2x128x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:           %[[FA0:.+]] = vector.extract_strided_slice %[[FA]] offsets = [0]
// CHECK:           amdgpu.mfma 16x16x16 %[[FA0]] * %[[FB0]]
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

// NN f16, 96x160x64 in 64x64 tiles of 64 bytes of K (the SREC and SMALL runs): B's 32 x 64
// tile in 8-wide reads spreads its 32 K rows over 32 threads along K, one row per thread: the K
// tile per thread is too small to transpose. B stays N-contiguous and its fragments are read one
// element at a time.
// With the K step left to the plan (the KSTEP run), the plan's cost rule, costing the plans as
// this pass restages them, takes 128 bytes of K (64 f16): B's 64 x 64 tile gives each thread 2 K
// rows, the pass transposes it (4-row rakes) and its fragments are read 8 K at a time, where at
// 64 bytes they would take four 16-bit reads a fragment (planner.narrow_reads).
// KSTEP-LABEL: func.func @nn_f16_small_k_tile
// KSTEP:         linalg.generic
// KSTEP-SAME:      ldsopt.matmul_plan = {by = "ldsopt-inthread-transpose", k_bytes = 128 : i64
// KSTEP-SAME:      B = {dims = ["k", "n"], {{.*}} rake = 4 : i64, read_vector = 8 : i64, register_transpose = true, {{.*}} tile = [64, 64]
// KSTEP:         return
// SREC-LABEL: func.func @nn_f16_small_k_tile
// SREC-NOT:     ldsopt.staging
// SREC:         return
// SMALL-LABEL: func.func @nn_f16_small_k_tile
// SMALL:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}} rake = 1 : i64, read_vector = 1 : i64, register_transpose = false, {{.*}}} : memref<2x32x72xf16, #gpu.address_space<workgroup>>
// SMALL-NOT:     vector.transpose
// SMALL:         vector.transfer_read {{.*}} : memref<2x32x72xf16, #gpu.address_space<workgroup>>, vector<1xf16>
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

// NN f32 on gfx942: MFMA 16x16x4 takes one K element per lane and step; in K-contiguous LDS in
// fragment order over 4 steps a lane's 4 elements are one 16-byte read (for 4 scalar reads down
// the N-contiguous rows): B is raked (2 K rows, 64 bits) and transposed.
// REC-LABEL: func.func @nn_f32
// REC:         ldsopt.staging = {A = {{{.*}}register_transpose = false{{.*}}}, B = {dims = ["k", "n"], fragment = "MFMA_F32_16x16x4_F32", k_order = "(4,4):(4,1)", k_pack = 4 : i64, {{.*}} rake = 2 : i64, read_vector = 4 : i64, register_transpose = true
// CHECK-LABEL: func.func @nn_f32
// CHECK:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], fragment = "MFMA_F32_16x16x4_F32", {{.*}} register_transpose = true, {{.*}}}
// CHECK:         vector.transpose {{.*}} : vector<2x4xf32> to vector<4x2xf32>
// CHECK:         scf.for
// CHECK:           %[[FB:.+]] = vector.load %[[LB]]{{.*}} alignment = 16 : {{.*}}, vector<4xf32>
// CHECK:           %[[B0:.+]] = vector.extract %[[FB]][0] : f32 from vector<4xf32>
// CHECK:           amdgpu.mfma 16x16x4 %{{.+}} * %[[B0]]
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
