// RUN: lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose{tiles=128x128x8x8})' | filecheck %s --check-prefix=REC
// RUN: lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose{tiles=128x128x8x8}, ldsopt-matmul-lds{tiles=128x128x8x8})' | filecheck %s --check-prefix=MFMA
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{tiles=128x128x8x8}, ldsopt-matmul-lds{carry-fragments=false tiles=128x128x8x8})' | filecheck %s --check-prefix=MMA

// NN i8 x i8 -> i32, 128x128x128, 128x128 tiles, BK = 64 i8 (k-bytes 64). B (K x N) is raked
// 8 K rows deep (64 bits of i8) by 4 along N, the 8x4 register tile transposed, and each
// column (8 K-consecutive i8) written to K-contiguous LDS; with A K-contiguous already, the
// fragment reads take two K steps (k_pack 2): 16 consecutive K a lane, one 16-byte read.
// REC-LABEL: func.func @nn_i8
// REC:         linalg.generic
// REC-SAME:      ldsopt.staged_by = ["ldsopt-inthread-transpose"]
// REC-SAME:      A = {dims = ["m", "k"], fragment = "MFMA_I32_16x16x32_I8", k_order = "(8,4,2):(1,16,8)", k_pack = 2 : i64,
// REC-SAME:      B = {dims = ["k", "n"], fragment = "MFMA_I32_16x16x32_I8", k_order = "(8,4,2):(1,16,8)", k_pack = 2 : i64, {{.*}} lds_order = [0, 1], {{.*}} rake = 8 : i64, read_vector = 16 : i64, register_transpose = true, {{.*}} tile = [64, 128], vector = 4 : i64}
// MFMA-LABEL: func.func @nn_i8
// MFMA-SAME:    ldsopt.lowered_by = ["ldsopt-inthread-transpose", "ldsopt-matmul-lds"]
// MFMA:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}} rake = 8 : i64, {{.*}} register_transpose = true, {{.*}}} : memref<2x128x64xi8, #gpu.address_space<workgroup>>
// MFMA:         vector.transpose %{{.+}}, [1, 0] : vector<8x4xi8> to vector<4x8xi8>
// MFMA:         vector.store %{{.+}}, %[[LB]]{{.*}} alignment = 8 : memref<2x128x64xi8, #gpu.address_space<workgroup>>, vector<8xi8>
// MFMA:         scf.for
// MFMA:           vector.transpose %{{.+}}, [1, 0] : vector<8x4xi8> to vector<4x8xi8>
// MFMA:           %[[R:.+]] = vector.load %[[LB]]{{.*}} alignment = 16 : memref<2x128x64xi8, #gpu.address_space<workgroup>>, vector<16xi8>
// MFMA:           vector.extract_strided_slice %[[R]] offsets = [0], sizes = [8], strides = [1] : vector<16xi8> to vector<8xi8>
// MFMA:           amdgpu.mfma 16x16x32 {{.*}} : vector<8xi8>, vector<8xi8>, vector<4xi32>
// MFMA:           vector.store %{{.+}}, %[[LB]]{{.*}} vector<8xi8>
// Each K step transposes the next tile's rakes before the MFMAs of this one, and stores them
// after. CUDA: the same rake (its global reads prefetched into L1), B's fragments of mma.sync
// m16n8k32 read 16 bytes at a time.
// MMA-LABEL: func.func @nn_i8
// MMA-SAME:    ldsopt.lowered_by = ["ldsopt-inthread-transpose", "ldsopt-matmul-lds"]
// MMA:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], fragment = "NV_MMA_SYNC_I32_16x8x32_I8", {{.*}} prefetch = 2 : i64, rake = 8 : i64, read_vector = 16 : i64, register_transpose = true, {{.*}}} : memref<2x128x64xi8, #gpu.address_space<workgroup>>
// MMA:         vector.transpose %{{.+}}, [1, 0] : vector<8x4xi8> to vector<4x8xi8>
// MMA:         scf.for
// MMA:           vector.transpose %{{.+}}, [1, 0] : vector<8x4xi8> to vector<4x8xi8>
// MMA:           vector.load %[[LB]]{{.*}} alignment = 16 : memref<2x128x64xi8, #gpu.address_space<workgroup>>, vector<16xi8>
// MMA:           nvgpu.mma.sync({{.*}}) mmaShape = [16, 8, 32] : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @nn_i8() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128x128xi8, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128x128xi8, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<128x128xi32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<128x128xi8, #hal.descriptor_type<storage_buffer>> -> tensor<128x128xi8>
  %b = iree_codegen.load_from_buffer %1 : memref<128x128xi8, #hal.descriptor_type<storage_buffer>> -> tensor<128x128xi8>
  %e = tensor.empty() : tensor<128x128xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<128x128xi32>) -> tensor<128x128xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<128x128xi8>, tensor<128x128xi8>) outs(%z : tensor<128x128xi32>) {
  ^bb0(%x: i8, %y: i8, %o: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<128x128xi32>
  iree_codegen.store_to_buffer %r, %2 : tensor<128x128xi32> into memref<128x128xi32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @nn_i8 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
