// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' -o %t
// RUN: lds-opt %s --split-input-file --target=cuda \
// RUN:   --pass-pipeline='builtin.module(ldsopt-dtl-layout, ldsopt-inthread-transpose, ldsopt-matmul-lds)' \
// RUN:   | filecheck %s --check-prefix=CUDA

// A matmul whose B IREE computes in the same dispatch by an elementwise producer (a
// dequantization: f16 weights extended to f32, times a per-output-channel scale over n).
// The producer's result never exists: each B vector is read as f16 from its binding, the
// scale read as a vector at the same n, and the f32 product stored into B's LDS tile, before
// the loop and for each next tile in it; A is staged as loaded.
// CHECK-LABEL: func.func @dequant_b_f16
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[W:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         %[[S:.+]] = hal.interface.binding.subspan {{.*}} binding(1)
// CHECK:         %[[A:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[LDS_B:.+]] = memref.alloc() alignment = 16 {{.*}}operand = "B"{{.*}} : memref<2x16x64xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[AV:.+]] = vector.transfer_read %[[A]]{{.*}} : memref<64x64xf32, {{.*}}>, vector<4xf32>
// CHECK:         %[[WV:.+]] = vector.transfer_read %[[W]][%{{.+}}, %[[N:.+]]], {{.*}} : memref<64x64xf16, {{.*}}>, vector<4xf16>
// CHECK:         %[[SV:.+]] = vector.transfer_read %[[S]][%[[N]]], {{.*}} : memref<64xf32, {{.*}}>, vector<4xf32>
// CHECK:         %[[WF:.+]] = arith.extf %[[WV]] : vector<4xf16> to vector<4xf32>
// CHECK:         %[[BV:.+]] = arith.mulf %[[WF]], %[[SV]] : vector<4xf32>
// CHECK:         vector.transfer_write %[[BV]], %[[LDS_B]]
// CHECK:         scf.for
// CHECK:           vector.transfer_read %[[W]]{{.*}} : memref<64x64xf16, {{.*}}>, vector<4xf16>
// CHECK:           arith.extf %{{.+}} : vector<4xf16> to vector<4xf32>
// CHECK:           %[[NEXT:.+]] = arith.mulf %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK:           vector.transfer_write %[[NEXT]], %[[LDS_B]]
// CHECK:           gpu.barrier
// CHECK-NOT:     memref<64x64xf32, #gpu.address_space<workgroup>>

// On CUDA the passes that would copy B without registers (cp.async) or restage it leave the
// dispatch, with the reason, to ldsopt-matmul-lds, which stages B through registers.
// CUDA-LABEL: func.func @dequant_b_f16
// CUDA-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CUDA-SAME:    ["ldsopt-dtl-layout", "operand B is computed by a fused elementwise producer, which ldsopt-matmul-lds applies in its register staging"]
// CUDA-NOT:     nvgpu.device_async_copy
// CUDA:         arith.extf %{{.+}} : vector<4xf16> to vector<4xf32>
// CUDA-NOT:     nvgpu.device_async_copy
// CUDA-LABEL: func.func @dequant_bt_i8_ragged
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dequant_b_f16() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %w = iree_codegen.load_from_buffer %0 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %s = iree_codegen.load_from_buffer %1 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %a = iree_codegen.load_from_buffer %2 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w, %s : tensor<64x64xf16>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f16, %c: f32, %out: f32):
    %x = arith.extf %in : f16 to f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %mm, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// i8 weights stored (n, k), read transposed (x @ W^T), dequantized by sitofp times a scale
// over n; N = 40 is ragged in the 64-wide tile. The scale's dim n is not the last of the
// (n, k) tile rows read, so it is one scalar per row, broadcast; the whole producer body runs
// under the guard of the row (a read past N neither reads the weights nor the scale), and the
// rows past N get zeros.
// CHECK-LABEL: func.func @dequant_bt_i8_ragged
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[W:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         %[[S:.+]] = hal.interface.binding.subspan {{.*}} binding(1)
// CHECK:         %[[LDS_B:.+]] = memref.alloc() alignment = 16 {{.*}}operand = "B"{{.*}} : memref<2x64x20xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[IN:.+]] = arith.cmpi ult, %[[N:.+]], %c40 : index
// CHECK:         %[[BV:.+]] = scf.if %[[IN]] -> (vector<4xf32>) {
// CHECK:           %[[WV:.+]] = vector.transfer_read %[[W]][%[[N]], %{{.+}}], {{.*}} : memref<40x64xi8, {{.*}}>, vector<4xi8>
// CHECK:           %[[SC:.+]] = memref.load %[[S]][%[[N]]] : memref<40xf32
// CHECK:           %[[SV:.+]] = vector.broadcast %[[SC]] : f32 to vector<4xf32>
// CHECK:           %[[WF:.+]] = arith.sitofp %[[WV]] : vector<4xi8> to vector<4xf32>
// CHECK:           %[[Y:.+]] = arith.mulf %[[WF]], %[[SV]] : vector<4xf32>
// CHECK:           scf.yield %[[Y]] : vector<4xf32>
// CHECK:         } else {
// CHECK:           %[[Z:.+]] = vector.broadcast %{{.+}} : f32 to vector<4xf32>
// CHECK:           scf.yield %[[Z]] : vector<4xf32>
// CHECK:         }
// CHECK:         vector.transfer_write %[[BV]], %[[LDS_B]]
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dequant_bt_i8_ragged() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<40x64xi8, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<40xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x40xf32, #hal.descriptor_type<storage_buffer>>
  %w = iree_codegen.load_from_buffer %0 : memref<40x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<40x64xi8>
  %s = iree_codegen.load_from_buffer %1 : memref<40xf32, #hal.descriptor_type<storage_buffer>> -> tensor<40xf32>
  %a = iree_codegen.load_from_buffer %2 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %ew = tensor.empty() : tensor<40x64xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w, %s : tensor<40x64xi8>, tensor<40xf32>) outs(%ew : tensor<40x64xf32>) {
  ^bb0(%in: i8, %c: f32, %out: f32):
    %x = arith.sitofp %in : i8 to f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<40x64xf32>
  %e = tensor.empty() : tensor<64x40xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x40xf32>) -> tensor<64x40xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<64x64xf32>, tensor<40x64xf32>) outs(%z : tensor<64x40xf32>) -> tensor<64x40xf32>
  iree_codegen.store_to_buffer %mm, %3 : tensor<64x40xf32> into memref<64x40xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A dequantized (f16 activations times a per-row scale over m) and an epilogue (bias, truncf
// to f16) in one dispatch: the prologue on A's loads, the epilogue on the accumulators.
// CHECK-LABEL: func.func @dequant_a_bias
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         %[[S:.+]] = hal.interface.binding.subspan {{.*}} binding(1)
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(4)
// CHECK:         %[[LDS_A:.+]] = memref.alloc() alignment = 16 {{.*}}operand = "A"{{.*}} : memref<2x64x16xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[XV:.+]] = vector.transfer_read %[[X]][%[[M:.+]], %{{.+}}], {{.*}} : memref<64x64xf16, {{.*}}>, vector<4xf16>
// CHECK:         %[[SC:.+]] = memref.load %[[S]][%[[M]]] : memref<64xf32
// CHECK:         %[[SV:.+]] = vector.broadcast %[[SC]] : f32 to vector<4xf32>
// CHECK:         %[[XF:.+]] = arith.extf %[[XV]] : vector<4xf16> to vector<4xf32>
// CHECK:         %[[AV:.+]] = arith.mulf %[[XF]], %[[SV]] : vector<4xf32>
// CHECK:         vector.transfer_write %[[AV]], %[[LDS_A]]
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:         %[[Y:.+]] = arith.addf %[[ACC]]#0, %{{.+}} : vector<4xf32>
// CHECK:         %[[T:.+]] = arith.truncf %[[Y]] : vector<4xf32> to vector<4xf16>
// CHECK:         vector.transfer_write %[[T]], %[[OUT]]{{.*}} : vector<4xf16>, memref<64x64xf16
#layout5 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dequant_a_bias() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout5) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout5) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout5) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout5) binding(3) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(#layout5) binding(4) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %s = iree_codegen.load_from_buffer %1 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %b = iree_codegen.load_from_buffer %2 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %bias = iree_codegen.load_from_buffer %3 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<64x64xf16>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f16, %c: f32, %out: f32):
    %xf = arith.extf %in : f16 to f32
    %y = arith.mulf %xf, %c : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e16 = tensor.empty() : tensor<64x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%e16 : tensor<64x64xf16>) {
  ^bb0(%v: f32, %c: f32, %o: f16):
    %y = arith.addf %v, %c : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x64xf16>
  iree_codegen.store_to_buffer %r, %4 : tensor<64x64xf16> into memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Refused: the producer's result is stored as well as multiplied (two uses), so it must
// exist in memory; left to IREE with the reason.
// CHECK-LABEL: func.func @producer_also_stored
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.matmul
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @producer_also_stored() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %w = iree_codegen.load_from_buffer %1 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: a linalg.matmul with a fused linalg.generic before it: the producer's result has 2 uses; takes one, as an input of the matmul}}
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<64x64xf16>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f16, %out: f32):
    %x = arith.extf %in : f16 to f32
    linalg.yield %x : f32
  } -> tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %mm, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %b, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Refused: the producer reads its input transposed, which the operand's vector reads along
// its rows cannot do.
// CHECK-LABEL: func.func @producer_reads_transposed
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.matmul
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @producer_reads_transposed() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %w = iree_codegen.load_from_buffer %1 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: a linalg.matmul with a fused linalg.generic before it: the producer reads a binding through (d0, d1) -> (d1, d0); takes ascending projections}}
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<64x64xf16>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f16, %out: f32):
    %x = arith.extf %in : f16 to f32
    linalg.yield %x : f32
  } -> tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %mm, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// One B (k, n) for every batch: the producer dequantizes and broadcasts it to (b, k, n), its
// scale the first input. Each B vector is read from the 2-D weights at (k, n), without the
// batch, and the body gets its inputs in its own order.
// CHECK-LABEL: func.func @broadcast_dequant_b
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[S:.+]] = hal.interface.binding.subspan {{.*}} binding(1)
// CHECK:         %[[W:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[LDS_B:.+]] = memref.alloc() alignment = 16 {{.*}}operand = "B"{{.*}} : memref<2x16x64xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[SV:.+]] = vector.transfer_read %[[S]][%[[N:.+]]], {{.*}} : memref<64xf32, {{.*}}>, vector<4xf32>
// CHECK:         %[[WV:.+]] = vector.transfer_read %[[W]][%{{.+}}, %[[N]]], {{.*}} : memref<64x64xi8, {{.*}}>, vector<4xi8>
// CHECK:         %[[WF:.+]] = arith.sitofp %[[WV]] : vector<4xi8> to vector<4xf32>
// CHECK:         %[[BV:.+]] = arith.mulf %[[SV]], %[[WF]] : vector<4xf32>
// CHECK:         vector.transfer_write %[[BV]], %[[LDS_B]]
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @broadcast_dequant_b() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xi8, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<2x64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<2x64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x64x64xf32>
  %s = iree_codegen.load_from_buffer %1 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %w = iree_codegen.load_from_buffer %2 : memref<64x64xi8, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xi8>
  %eb = tensor.empty() : tensor<2x64x64xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %w : tensor<64xf32>, tensor<64x64xi8>) outs(%eb : tensor<2x64x64xf32>) {
  ^bb0(%c: f32, %q: i8, %out: f32):
    %x = arith.sitofp %q : i8 to f32
    %y = arith.mulf %c, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%eb : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<2x64x64xf32>, tensor<2x64x64xf32>) outs(%z : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  iree_codegen.store_to_buffer %mm, %3 : tensor<2x64x64xf32> into memref<2x64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Refused: an elementwise op before the matmul that computes the consumer's bias, not an
// operand of the matmul.
// CHECK-LABEL: func.func @producer_of_the_consumer
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.matmul
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @producer_of_the_consumer() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %bias = iree_codegen.load_from_buffer %2 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %eb = tensor.empty() : tensor<64xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: a linalg.matmul with a fused linalg.generic before it: the producer's result is not an input of the matmul}}
  %bias2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%bias : tensor<64xf32>) outs(%eb : tensor<64xf32>) {
  ^bb0(%x: f32, %out: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias2 : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %y = arith.addf %v, %c : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %r, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
