// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s --check-prefix=FMA
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s --check-prefix=MFMA
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s --check-prefix=MMA
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' -o %t

// i8 x i8 -> i32 matmuls (the body sign-extends both operands: extsi, muli, addi). The tiles
// are staged as i8 (a K step of k-bytes = 64 i8), accumulated in i32.
// NN, 96x160x64, as a generic. lavapipe (no matrix cores): FMA path, each fragment read (4 i8
// along the LDS row) sign-extended to vector<4xi32>, then muli + addi on vectors of 4 (no
// vector.fma, which is float-only). K = 64 is one K step: the loop reads no tile ahead, stores
// none to LDS and needs no barrier.
// FMA-LABEL: func.func @nn_i8
// FMA-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// FMA:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], fragment = "fma 4x4"{{.*}}} : memref<2x64x64xi8, #gpu.address_space<workgroup>>
// FMA:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], fragment = "fma 4x4"{{.*}}} : memref<2x64x64xi8, #gpu.address_space<workgroup>>
// FMA:         scf.for {{.*}} -> (vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>)
// FMA:           %[[RA:.+]] = vector.transfer_read %[[LA]]{{.*}} vector<4xi8>
// FMA-NEXT:      %[[XA:.+]] = arith.extsi %[[RA]] : vector<4xi8> to vector<4xi32>
// FMA:           %[[RB:.+]] = vector.transfer_read %[[LB]]{{.*}} vector<4xi8>
// FMA-NEXT:      %[[XB:.+]] = arith.extsi %[[RB]] : vector<4xi8> to vector<4xi32>
// FMA:           %[[E:.+]] = vector.extract %[[XA]][0] : i32 from vector<4xi32>
// FMA-NEXT:      %[[BC:.+]] = vector.broadcast %[[E]] : i32 to vector<4xi32>
// FMA-NEXT:      %[[P:.+]] = arith.muli %[[BC]], %[[XB]] : vector<4xi32>
// FMA-NEXT:      arith.addi %[[P]], %{{.+}} : vector<4xi32>
// FMA-NOT:       vector.fma
// FMA-NOT:       gpu.barrier
// FMA:         vector.transfer_write {{.*}} : vector<4xi32>, memref<96x160xi32
// gfx942: v_mfma_i32_16x16x32_i8 (amdgpu.mfma 16x16x32), 8 K-consecutive i8 a lane: A's one
// 8-byte read from its K-contiguous rows, B's eight scalar reads down its N-contiguous rows.
// MFMA-LABEL: func.func @nn_i8
// MFMA:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], fragment = "MFMA_I32_16x16x32_I8", {{.*}} read_vector = 8 : i64, {{.*}}} : memref<2x64x80xi8, #gpu.address_space<workgroup>>
// MFMA:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], fragment = "MFMA_I32_16x16x32_I8", {{.*}} read_vector = 1 : i64, {{.*}}} : memref<2x64x64xi8, #gpu.address_space<workgroup>>
// MFMA:         scf.for {{.*}} -> (vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>)
// MFMA:           %[[B0:.+]] = vector.from_elements {{.*}} : vector<8xi8>
// MFMA:           %[[A0:.+]] = vector.load {{.*}} alignment = 8 : {{.*}}, vector<8xi8>
// MFMA-NEXT:      amdgpu.mfma 16x16x32 %[[A0]] * %[[B0]] + %{{.+}} : vector<8xi8>, vector<8xi8>, vector<4xi32>
// MFMA-NOT:       arith.extsi
// The i32 sums through the output stage (64 x (64 + 4)), then 16 bytes a lane.
// MFMA:         vector.transfer_write {{.*}} : vector<1xi32>, memref<64x68xi32, #gpu.address_space<workgroup>>
// MFMA:         gpu.barrier
// MFMA:         vector.store {{.*}} alignment = 16 : memref<96x160xi32, {{.*}}>, vector<4xi32>
// CUDA: mma.sync m16n8k32 s8 (nvgpu.mma.sync, lowered to mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32):
// A's four 4-byte registers, B's two, C's 2x2 i32 stored as pairs along N.
// MMA-LABEL: func.func @nn_i8
// MMA:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], fragment = "NV_MMA_SYNC_I32_16x8x32_I8", {{.*}} read_vector = 4 : i64, {{.*}}} : memref<2x64x80xi8, #gpu.address_space<workgroup>>
// MMA:         scf.for {{.*}} -> (vector<2x2xi32>, vector<2x2xi32>, vector<2x2xi32>, vector<2x2xi32>)
// MMA:           %[[B:.+]] = vector.shape_cast %{{.+}} : vector<8xi8> to vector<2x4xi8>
// MMA:           vector.load {{.*}} alignment = 4 : memref<2x64x80xi8, #gpu.address_space<workgroup>>, vector<4xi8>
// MMA:           %[[A:.+]] = vector.shape_cast %{{.+}} : vector<16xi8> to vector<4x4xi8>
// MMA-NEXT:      nvgpu.mma.sync(%[[A]], %[[B]], %{{.+}}) mmaShape = [16, 8, 32] : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
// MMA:         vector.store {{.*}} alignment = 8 : memref<64x72xi32, #gpu.address_space<workgroup>>, vector<2xi32>
// MMA:         gpu.barrier
// MMA:         vector.store {{.*}} alignment = 16 : memref<96x160xi32, {{.*}}>, vector<4xi32>
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @nn_i8() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x64xi8, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x160xi8, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<96x160xi32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<96x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<96x64xi8>
  %b = iree_codegen.load_from_buffer %1 : memref<64x160xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x160xi8>
  %e = tensor.empty() : tensor<96x160xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<96x160xi32>) -> tensor<96x160xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<96x64xi8>, tensor<64x160xi8>) outs(%z : tensor<96x160xi32>) {
  ^bb0(%x: i8, %y: i8, %o: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<96x160xi32>
  iree_codegen.store_to_buffer %r, %2 : tensor<96x160xi32> into memref<96x160xi32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @nn_i8 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// NT, 64x64x128, the named form (`linalg.matmul` with indexing_maps): both operands
// K-contiguous, so the matrix-core reads take two K steps at once (k_pack 2) in mma.k_order:
// 16 consecutive i8 a lane, one 16-byte LDS read per row.
// FMA-LABEL: func.func @nt_i8
// FMA:         arith.extsi {{.*}} : vector<4xi8> to vector<4xi32>
// FMA:         arith.muli {{.*}} : vector<4xi32>
// MFMA-LABEL: func.func @nt_i8
// MFMA:         fragment = "MFMA_I32_16x16x32_I8", k_order = "(8,4,2):(1,16,8)", k_pack = 2 : i64, {{.*}} read_vector = 16 : i64
// MFMA:         %[[R:.+]] = vector.load {{.*}} alignment = 16 : {{.*}}, vector<16xi8>
// MFMA:         vector.extract_strided_slice %[[R]] offsets = [0], sizes = [8], strides = [1] : vector<16xi8> to vector<8xi8>
// MFMA:         amdgpu.mfma 16x16x32 {{.*}} : vector<8xi8>, vector<8xi8>, vector<4xi32>
// MMA-LABEL: func.func @nt_i8
// MMA:         fragment = "NV_MMA_SYNC_I32_16x8x32_I8", k_order = "(4,4,4):(1,16,4)", k_pack = 2 : i64, {{.*}} read_vector = 16 : i64
// MMA:         vector.load {{.*}} alignment = 16 : {{.*}}, vector<16xi8>
// MMA:         nvgpu.mma.sync({{.*}}) mmaShape = [16, 8, 32]
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @nt_i8() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x128xi8, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x128xi8, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xi32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x128xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x128xi8>
  %b = iree_codegen.load_from_buffer %1 : memref<64x128xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x128xi8>
  %e = tensor.empty() : tensor<64x64xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<64x64xi32>) -> tensor<64x64xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : tensor<64x128xi8>, tensor<64x128xi8>) outs(%z : tensor<64x64xi32>) -> tensor<64x64xi32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x64xi32> into memref<64x64xi32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @nt_i8 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// Dequantization fused after the i8 matmul: the i32 sums converted to f32 and scaled per
// column through the epilogue mechanism (the scales read before the K loop); the i32 result is
// never stored.
// FMA-LABEL: func.func @dequant_i8
// FMA-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// FMA:         %[[SCALE:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// FMA:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(3)
// FMA:         %[[S:.+]] = vector.transfer_read %[[SCALE]][%{{.+}}]{{.*}} : memref<64xf32, {{.*}}>, vector<4xf32>
// FMA:         %[[ACC:.+]]:4 = scf.for
// FMA-NOT:     linalg.generic
// FMA:         %[[F:.+]] = arith.sitofp %[[ACC]]#0 : vector<4xi32> to vector<4xf32>
// FMA:         %[[Y:.+]] = arith.mulf %[[F]], %[[S]] : vector<4xf32>
// FMA:         vector.transfer_write %[[Y]], %[[OUT]]{{.*}} : vector<4xf32>, memref<64x64xf32
// FMA-NOT:     vector.transfer_write {{.*}} memref<64x64xi32
// MFMA-LABEL: func.func @dequant_i8
// MFMA:         amdgpu.mfma 16x16x32
// MFMA:         arith.sitofp {{.*}} : vector<1xi32> to vector<1xf32>
// MMA-LABEL: func.func @dequant_i8
// MMA:         nvgpu.mma.sync
// MMA:         arith.sitofp {{.*}} : vector<2xi32> to vector<2xf32>
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dequant_i8() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %scale = iree_codegen.load_from_buffer %2 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x64xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<64x64xi32>) -> tensor<64x64xi32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xi8>, tensor<64x64xi8>) outs(%z : tensor<64x64xi32>) -> tensor<64x64xi32>
  %ef = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %scale : tensor<64x64xi32>, tensor<64xf32>) outs(%ef : tensor<64x64xf32>) {
  ^bb0(%x: i32, %s: f32, %o: f32):
    %f = arith.sitofp %x : i32 to f32
    %y = arith.mulf %f, %s : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %r, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @dequant_i8 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// Refused: unsigned i8 (the body zero-extends, arith.extui): left to IREE, with the reason.
// FMA-LABEL: func.func @nn_u8
// FMA-NOT:     ldsopt.lowered_by
// FMA:         linalg.generic
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @nn_u8() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xi32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %e = tensor.empty() : tensor<64x64xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<64x64xi32>) -> tensor<64x64xi32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: the body is not a multiply-add of operands sign-extended to i32 (extsi, muli, addi)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x64xi8>, tensor<64x64xi8>) outs(%z : tensor<64x64xi32>) {
  ^bb0(%x: i8, %y: i8, %o: i32):
    %xe = arith.extui %x : i8 to i32
    %ye = arith.extui %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<64x64xi32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x64xi32> into memref<64x64xi32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @nn_u8 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// Refused: i8 x i8 -> i8 (multiplied and summed in i8, wrapping): no i32 accumulator to give it.
// FMA-LABEL: func.func @nn_i8_to_i8
// FMA-NOT:     ldsopt.lowered_by
// FMA:         linalg.generic
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @nn_i8_to_i8() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i8
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %e = tensor.empty() : tensor<64x64xi8>
  %z = linalg.fill ins(%zero : i8) outs(%e : tensor<64x64xi8>) -> tensor<64x64xi8>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: operands i8 x i8 -> i8: takes two operands of one type into its accumulator (f32 -> f32, f16 -> f32, bf16 -> f32, i8 -> i32)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x64xi8>, tensor<64x64xi8>) outs(%z : tensor<64x64xi8>) {
  ^bb0(%x: i8, %y: i8, %o: i8):
    %p = arith.muli %x, %y : i8
    %s = arith.addi %o, %p : i8
    linalg.yield %s : i8
  } -> tensor<64x64xi8>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x64xi8> into memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @nn_i8_to_i8 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// An integer consumer: an i32 bias added to the i32 sums (arith.addi on the accumulator
// vectors before the store), i32 out.
// FMA-LABEL: func.func @i8_int_bias
// FMA-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// FMA:         %[[BIAS:.+]] = vector.transfer_read {{.*}} : memref<64xi32, {{.*}}>, vector<4xi32>
// FMA:         %[[ACC:.+]]:4 = scf.for
// FMA:         %[[Y:.+]] = arith.addi %[[ACC]]#0, %[[BIAS]] : vector<4xi32>
// FMA:         vector.transfer_write %[[Y]], {{.*}} : vector<4xi32>, memref<64x64xi32
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @i8_int_bias() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xi32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xi32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %side = iree_codegen.load_from_buffer %2 : memref<64xi32, #hal.descriptor_type<storage_buffer>> -> tensor<64xi32>
  %e = tensor.empty() : tensor<64x64xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<64x64xi32>) -> tensor<64x64xi32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xi8>, tensor<64x64xi8>) outs(%z : tensor<64x64xi32>) -> tensor<64x64xi32>
  %eo = tensor.empty() : tensor<64x64xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %side : tensor<64x64xi32>, tensor<64xi32>) outs(%eo : tensor<64x64xi32>) {
  ^bb0(%x: i32, %c: i32, %o: i32):
    %y = arith.addi %x, %c : i32
    linalg.yield %y : i32
  } -> tensor<64x64xi32>
  iree_codegen.store_to_buffer %r, %3 : tensor<64x64xi32> into memref<64x64xi32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @i8_int_bias {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// Requantization to i8 fused after the i8 matmul: the i32 sums to f32, times a per-column
// scale, rounded half to even, plus the zero point, clamped to [-128, 127] and converted to
// i8, all on the accumulator vectors; only i8 is stored (through the output stage on the
// matrix-core targets: a 64 x (64 + pad) i8 tile, copied out 16 bytes a lane).
// FMA-LABEL: func.func @i8_requant
// FMA-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// FMA:         %[[S:.+]] = vector.transfer_read {{.*}} : memref<64xf32, {{.*}}>, vector<4xf32>
// FMA:         %[[ACC:.+]]:4 = scf.for
// FMA:         %[[F:.+]] = arith.sitofp %[[ACC]]#0 : vector<4xi32> to vector<4xf32>
// FMA:         %[[Y:.+]] = arith.mulf %[[F]], %[[S]] : vector<4xf32>
// FMA:         %[[N:.+]] = math.roundeven %[[Y]] : vector<4xf32>
// FMA:         %[[W:.+]] = arith.addf %[[N]], %{{.+}} : vector<4xf32>
// FMA:         %[[LO:.+]] = arith.maximumf %[[W]], %{{.+}} : vector<4xf32>
// FMA:         %[[HI:.+]] = arith.minimumf %[[LO]], %{{.+}} : vector<4xf32>
// FMA:         %[[Q:.+]] = arith.fptosi %[[HI]] : vector<4xf32> to vector<4xi8>
// FMA:         vector.transfer_write %[[Q]], {{.*}} : vector<4xi8>, memref<64x64xi8
// FMA-NOT:     memref<64x64xi32
// MFMA-LABEL: func.func @i8_requant
// MFMA:         amdgpu.mfma 16x16x32
// MFMA:         arith.fptosi {{.*}} : vector<1xf32> to vector<1xi8>
// MFMA:         memref<64x{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
// MFMA:         gpu.barrier
// MFMA:         vector.store {{.*}} : memref<64x64xi8, {{.*}}>, vector<16xi8>
// MMA-LABEL: func.func @i8_requant
// MMA:         nvgpu.mma.sync
// MMA:         arith.fptosi {{.*}} : vector<2xf32> to vector<2xi8>
// MMA:         vector.store {{.*}} : memref<64x64xi8, {{.*}}>, vector<16xi8>
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @i8_requant() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %side = iree_codegen.load_from_buffer %2 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x64xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<64x64xi32>) -> tensor<64x64xi32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xi8>, tensor<64x64xi8>) outs(%z : tensor<64x64xi32>) -> tensor<64x64xi32>
  %eo = tensor.empty() : tensor<64x64xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %side : tensor<64x64xi32>, tensor<64xf32>) outs(%eo : tensor<64x64xi8>) {
  ^bb0(%x: i32, %s: f32, %o: i8):
    %zp = arith.constant 3.0 : f32
    %lo = arith.constant -128.0 : f32
    %hi = arith.constant 127.0 : f32
    %f = arith.sitofp %x : i32 to f32
    %y = arith.mulf %f, %s : f32
    %n = math.roundeven %y : f32
    %w = arith.addf %n, %zp : f32
    %cl = arith.maximumf %w, %lo : f32
    %ch = arith.minimumf %cl, %hi : f32
    %q = arith.fptosi %ch : f32 to i8
    linalg.yield %q : i8
  } -> tensor<64x64xi8>
  iree_codegen.store_to_buffer %r, %3 : tensor<64x64xi8> into memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @i8_requant {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// Refused: a consumer whose result is i1 (a mask of the sums against a threshold), which
// IREE stores as bytes: left to IREE, with the reason.
// FMA-LABEL: func.func @i8_i1_consumer
// FMA-NOT:     ldsopt.lowered_by
// FMA:         linalg.matmul
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @i8_i1_consumer() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xi32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xi1, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %side = iree_codegen.load_from_buffer %2 : memref<64xi32, #hal.descriptor_type<storage_buffer>> -> tensor<64xi32>
  %e = tensor.empty() : tensor<64x64xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<64x64xi32>) -> tensor<64x64xi32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: a linalg.matmul with a fused linalg.generic: the consumer's result is i1; takes floats and integers of 8 bits or more}}
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xi8>, tensor<64x64xi8>) outs(%z : tensor<64x64xi32>) -> tensor<64x64xi32>
  %eo = tensor.empty() : tensor<64x64xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %side : tensor<64x64xi32>, tensor<64xi32>) outs(%eo : tensor<64x64xi1>) {
  ^bb0(%x: i32, %c: i32, %o: i1):
    %y = arith.cmpi sgt, %x, %c : i32
    linalg.yield %y : i1
  } -> tensor<64x64xi1>
  iree_codegen.store_to_buffer %r, %3 : tensor<64x64xi1> into memref<64x64xi1, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @i8_i1_consumer {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
