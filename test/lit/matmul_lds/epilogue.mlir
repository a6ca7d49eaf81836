// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' -o %t
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds{carry-fragments=false tiles=64x64x4x4})' \
// RUN:   | filecheck %s --check-prefix=CUDA
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds{carry-fragments=false output-lds=false tiles=64x64x4x4})' \
// RUN:   | filecheck %s --check-prefix=CUDA-DIRECT

// A matmul with the elementwise consumer IREE fuses into its dispatch: f16 operands, f32
// accumulation, + a row bias (over n), GELU by erf, truncated to f16. The f32 result is never
// stored: each accumulator piece (4 along N) goes through the consumer's body on vectors, the
// bias read as a vector at the same n, and the f16 vector is written to the stored binding. The
// bias is read before the K loop, once for the 4 pieces of the same n: its latency hides behind
// the loop instead of stalling the stores.
// On CUDA each lane's pieces are 2 wide (mma.sync's C layout): the bias reads state their
// alignment (8 bytes), which LLVM cannot prove at a dynamic column and would otherwise split
// into 16-bit accesses. GELU's 2^x is PTX's ex2.approx, a lane at a time (IREE would expand
// math.exp2 into a polynomial there). The last K step is out of the loop and goes by
// accumulator, each one's GELU after the next one's products (which it overlaps). The consumer's f16 pieces go through the output stage (64 x (64 + 8)
// f16 in LDS, aligned to its 16-byte copies) and leave 16 bytes a lane; with output-lds=false they are written directly, their
// alignment (4 bytes) stated too.
// CUDA-LABEL: func.func @bias_gelu_f16
// CUDA:         %[[BIAS:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CUDA:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(3)
// CUDA:         %[[LO:.+]] = memref.alloc() alignment = 16 {ldsopt.output_stage = {pad = 8 : i64, vec = 8 : i64}} : memref<64x72xf16, #gpu.address_space<workgroup>>
// CUDA-COUNT-2: vector.load %[[BIAS]][%{{.+}}] alignment = 8 : memref<64xf32, {{.*}}>, vector<2xf32>
// CUDA:         %[[ACC:.+]]:4 = scf.for
// CUDA-NOT:     vector.load %[[BIAS]]
// CUDA-NOT:     math.exp2
// CUDA:         scf.yield
// CUDA:         %[[A0:.+]] = nvgpu.mma.sync(%{{.+}}, %{{.+}}, %[[ACC]]#0)
// CUDA:         %[[F0:.+]] = nvgpu.mma.sync(%{{.+}}, %{{.+}}, %[[A0]])
// CUDA:         nvgpu.mma.sync(%{{.+}}, %{{.+}}, %[[ACC]]#1)
// CUDA-NOT:     llvm.call_intrinsic
// CUDA:         vector.shape_cast %[[F0]]
// CUDA:         llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%{{.+}}) : (f32) -> f32
// CUDA:         vector.store %{{.+}}, %[[LO]][%{{.+}}, %{{.+}}] alignment = 4 : memref<64x72xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CUDA:         gpu.barrier
// CUDA:         vector.load %[[LO]][%{{.+}}, %{{.+}}] alignment = 16 : memref<64x72xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CUDA-NEXT:    vector.store %{{.+}}, %[[OUT]][%{{.+}}, %{{.+}}] alignment = 16 : memref<64x64xf16, {{.*}}>, vector<8xf16>
// CUDA-DIRECT-LABEL: func.func @bias_gelu_f16
// CUDA-DIRECT:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(3)
// CUDA-DIRECT:         scf.for
// CUDA-DIRECT:         vector.store %{{.+}}, %[[OUT]][%{{.+}}, %{{.+}}] alignment = 4 : memref<64x64xf16, {{.*}}>, vector<2xf16>
// CHECK-LABEL: func.func @bias_gelu_f16
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[BIAS:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(3)
// CHECK:         %[[B0:.+]] = vector.transfer_read %[[BIAS]][%{{.+}}]{{.*}} : memref<64xf32, {{.*}}>, vector<4xf32>
// CHECK-NOT:     vector.transfer_read %[[BIAS]]
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     vector.transfer_read %[[BIAS]]
// CHECK:         %[[Y:.+]] = arith.addf %[[ACC]]#0, %[[B0]] : vector<4xf32>
// GELU by erf as ldsopt/codegen/fast_math.py expands the product 0.5 y (1 + erf(y / sqrt 2)):
// relu(y) - u 0.5 erfc(u / sqrt 2), u = |y| clamped, erfc = 2^L(u) with the 1 / sqrt 2 and
// the 0.5 in L's coefficients: no division, no select, no multiply by a constant. Its value is
// only truncated to f16: L is the fit for 16 bits, of degree 6.
// CHECK-NOT:     arith.mulf %[[Y]]
// CHECK:         %[[A:.+]] = math.absf %[[Y]] : vector<4xf32>
// CHECK:         %[[U:.+]] = arith.minimumf %[[A]], %{{.+}} : vector<4xf32>
// CHECK-COUNT-6: math.fma %{{.+}}, %[[U]], %{{.+}} : vector<4xf32>
// CHECK-NEXT:    %[[E:.+]] = math.exp2 %{{.+}} fastmath<afn> : vector<4xf32>
// CHECK:         %[[R:.+]] = arith.maxnumf %[[Y]], %{{.+}} : vector<4xf32>
// CHECK:         %[[NU:.+]] = arith.negf %[[U]] : vector<4xf32>
// CHECK:         %[[G:.+]] = math.fma %[[NU]], %[[E]], %[[R]] : vector<4xf32>
// CHECK:         %[[T:.+]] = arith.truncf %[[G]] : vector<4xf32> to vector<4xf16>
// CHECK:         vector.transfer_write %[[T]], %[[OUT]]{{.*}} : vector<4xf16>, memref<64x64xf16
// CHECK-NOT:     vector.transfer_write {{.*}} vector<4xf32>, memref<64x64xf32
// CHECK-NOT:     arith.divf
// CHECK:         math.exp2
// CHECK:         vector.transfer_write %{{.+}}, %[[OUT]]{{.*}} : vector<4xf16>
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @bias_gelu_f16() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %bias = iree_codegen.load_from_buffer %2 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e16 = tensor.empty() : tensor<64x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%e16 : tensor<64x64xf16>) {
  ^bb0(%x: f32, %c: f32, %o: f16):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.70710678118654752 : f32
    %y = arith.addf %x, %c : f32
    %s = arith.mulf %y, %rsqrt2 : f32
    %erf = math.erf %s : f32
    %p = arith.addf %erf, %one : f32
    %h = arith.mulf %y, %half : f32
    %g = arith.mulf %h, %p : f32
    %t = arith.truncf %g : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x64xf16>
  iree_codegen.store_to_buffer %r, %3 : tensor<64x64xf16> into memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A consumer whose math is one instruction (math.absf) keeps the whole K loop: nothing to
// overlap, and the step out of the loop would read B's fragments twice.
// CUDA-LABEL: func.func @bias_abs_f16
// CUDA:         %[[ACC:.+]]:4 = scf.for
// CUDA:         scf.yield
// CUDA-NOT:     nvgpu.mma.sync
// CUDA:         vector.shape_cast %[[ACC]]#0
// CUDA:         math.absf
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @bias_abs_f16() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %bias = iree_codegen.load_from_buffer %2 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e16 = tensor.empty() : tensor<64x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%e16 : tensor<64x64xf16>) {
  ^bb0(%x: f32, %c: f32, %o: f16):
    %y = arith.addf %x, %c : f32
    %m = math.absf %y : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x64xf16>
  iree_codegen.store_to_buffer %r, %3 : tensor<64x64xf16> into memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A column bias (over m) is one scalar per output row: loaded once per row, before the K loop,
// and broadcast along n.
// CHECK-LABEL: func.func @column_bias
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[BIAS:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(3)
// CHECK:         %[[C:.+]] = memref.load %[[BIAS]][%{{.+}}] : memref<64xf32
// CHECK:         %[[CV:.+]] = vector.broadcast %[[C]] : f32 to vector<4xf32>
// CHECK-COUNT-3: memref.load %[[BIAS]]
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:         %[[Y:.+]] = arith.addf %[[ACC]]#0, %[[CV]] : vector<4xf32>
// CHECK:         vector.transfer_write %[[Y]], %[[OUT]]
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @column_bias() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %bias = iree_codegen.load_from_buffer %2 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %y = arith.addf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %r, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Refused: the matmul's result is stored as well as consumed (two uses), so it cannot stay in
// registers; left to IREE with the reason.
// CHECK-LABEL: func.func @result_also_stored
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.matmul
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @result_also_stored() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: a linalg.matmul with a fused linalg.generic: the matmul's result has 2 uses; takes one elementwise consumer}}
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.tanh %x : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %mm, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %r, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Refused: two consumers of the matmul's result (three fused ops).
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @two_consumers() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: 3 ops fused in one dispatch (linalg.matmul, linalg.generic, linalg.generic); this pass takes a matmul, elementwise producers of its operands, row sums of its A operand and at most one elementwise consumer}}
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.tanh %x : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %s, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Attention's head merge: the consumer writes (b, m, n) as (m, b, n), n still last, so each
// piece is written along n at (m, b, n).
// CHECK-LABEL: func.func @head_merge
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[B:.+]] = gpu.block_id z
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[M:.+]] = arith.addi
// CHECK-NEXT:    %[[N:.+]] = arith.addi
// CHECK-NEXT:    %[[E:.+]] = math.exp %[[ACC]]#0 : vector<4xf32>
// CHECK:         vector.transfer_write %[[E]], %[[OUT]][%[[M]], %[[B]], %[[N]]] {{.*}} : vector<4xf32>, memref<64x2x64xf32
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @head_merge() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x2x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<2x64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<2x64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x64x64xf32>
  %e = tensor.empty() : tensor<2x64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<2x64x64xf32>, tensor<2x64x64xf32>) outs(%z : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %t = tensor.empty() : tensor<64x2x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm : tensor<2x64x64xf32>) outs(%t : tensor<64x2x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<64x2x64xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x2x64xf32> into memref<64x2x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// The consumer writes the result transposed (n no longer last: FocalNet's, SqueezeBERT's): the
// body runs on the vectors along n as before, and each lane's element is stored alone at its
// own n, the output's indices in the consumer's order (n, m).
// CHECK-LABEL: func.func @transposed_result
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[M:.+]] = arith.addi
// CHECK-NEXT:    %[[N:.+]] = arith.addi
// CHECK-NEXT:    %[[T:.+]] = math.tanh %[[ACC]]#0 : vector<4xf32>
// CHECK-NEXT:    %[[E0:.+]] = vector.extract %[[T]][0] : f32 from vector<4xf32>
// CHECK-NEXT:    memref.store %[[E0]], %[[OUT]][%[[N]], %[[M]]]
// CHECK-NEXT:    %[[N1:.+]] = arith.addi %[[N]], %{{.+}} : index
// CHECK-NEXT:    %[[E1:.+]] = vector.extract %[[T]][1] : f32 from vector<4xf32>
// CHECK-NEXT:    memref.store %[[E1]], %[[OUT]][%[[N1]], %[[M]]]
// CHECK-NOT:     vector.transfer_write {{.*}}%[[OUT]]
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @transposed_result() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.tanh %x : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A consumer of two results, each stored (LeViT's BatchNorm stored as is and permuted): both
// come from one clone of the body per piece; the first is written as a vector along n, the
// second, stored (n, m), a lane at a time.
// CHECK-LABEL: func.func @two_results
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[OUT2:.+]] = hal.interface.binding.subspan {{.*}} binding(3)
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[M:.+]] = arith.addi
// CHECK-NEXT:    %[[N:.+]] = arith.addi
// CHECK-NEXT:    %[[T:.+]] = math.tanh %[[ACC]]#0 : vector<4xf32>
// CHECK-NEXT:    %[[E:.+]] = math.exp %[[ACC]]#0 : vector<4xf32>
// CHECK-NEXT:    vector.transfer_write %[[T]], %[[OUT]][%[[M]], %[[N]]]
// CHECK-NEXT:    %[[E0:.+]] = vector.extract %[[E]][0] : f32 from vector<4xf32>
// CHECK-NEXT:    memref.store %[[E0]], %[[OUT2]][%[[N]], %[[M]]]
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @two_results() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x64xf32>) outs(%e, %e : tensor<64x64xf32>, tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32, %o2: f32):
    %y = math.tanh %x : f32
    %w = math.exp %x : f32
    linalg.yield %y, %w : f32, f32
  } -> (tensor<64x64xf32>, tensor<64x64xf32>)
  iree_codegen.store_to_buffer %r#0, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %r#1, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// ReLU (`arith.maximumf` with 0) on each accumulator piece before its store along n.
// CHECK-LABEL: func.func @relu
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK:         %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[ZV:.+]] = vector.broadcast %[[Z]] : f32 to vector<4xf32>
// CHECK-NEXT:    %[[R:.+]] = arith.maximumf %[[ACC]]#0, %[[ZV]] : vector<4xf32>
// CHECK:         vector.transfer_write %[[R]], %[[OUT]]{{.*}} : vector<4xf32>, memref<64x64xf32
// CHECK-COUNT-3: arith.maximumf %[[ACC]]#{{[1-3]}}, %{{.+}} : vector<4xf32>
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @relu() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %eo = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x64xf32>) outs(%eo : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z0 = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %z0 : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// GELU by tanh, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), on f16 operands with f32
// accumulation, truncated to f16: the whole body on vector<4xf32>, the store a vector<4xf16>;
// 1 + tanh(sqrt(2/pi) y) is fast_math's 2 / (1 + 2^(-2 sqrt(2/pi) log2(e) y)), the scale in
// the exponent's factor (-2.30220819), no tanh left.
// CHECK-LABEL: func.func @gelu_tanh_f16
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:         %[[X2:.+]] = arith.mulf %[[ACC]]#0, %[[ACC]]#0 : vector<4xf32>
// CHECK:         %[[X3:.+]] = arith.mulf %[[X2]], %[[ACC]]#0 : vector<4xf32>
// CHECK:         %[[CX3:.+]] = arith.mulf %[[X3]], %{{.+}} : vector<4xf32>
// CHECK:         %[[IN:.+]] = arith.addf %[[ACC]]#0, %[[CX3]] : vector<4xf32>
// CHECK:         %[[K:.+]] = arith.constant dense<-2.30220{{[0-9]+}}> : vector<4xf32>
// CHECK:         %[[ARG:.+]] = arith.mulf %[[IN]], %[[K]] : vector<4xf32>
// CHECK:         %[[E:.+]] = math.exp2 %[[ARG]] fastmath<afn> : vector<4xf32>
// CHECK:         %[[TWO:.+]] = arith.constant dense<2.000000e+00> : vector<4xf32>
// CHECK:         %[[S:.+]] = arith.addf %{{.+}}, %[[E]] : vector<4xf32>
// CHECK:         %[[P:.+]] = arith.divf %[[TWO]], %[[S]] fastmath<afn> : vector<4xf32>
// CHECK:         %[[H:.+]] = arith.mulf %[[ACC]]#0, %{{.+}} : vector<4xf32>
// CHECK:         %[[G:.+]] = arith.mulf %[[H]], %[[P]] : vector<4xf32>
// CHECK:         %[[G16:.+]] = arith.truncf %[[G]] : vector<4xf32> to vector<4xf16>
// CHECK:         vector.transfer_write %[[G16]], %[[OUT]]{{.*}} : vector<4xf16>, memref<64x64xf16
// CHECK-COUNT-3: math.exp2 %{{.+}} fastmath<afn> : vector<4xf32>
// CHECK-NOT:     math.tanh
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @gelu_tanh_f16() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %eo = tensor.empty() : tensor<64x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x64xf32>) outs(%eo : tensor<64x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.044715 : f32
    %s2pi = arith.constant 0.7978845608028654 : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %cx3 = arith.mulf %x3, %c : f32
    %in = arith.addf %x, %cx3 : f32
    %arg = arith.mulf %in, %s2pi : f32
    %t = math.tanh %arg : f32
    %p = arith.addf %t, %one : f32
    %h = arith.mulf %x, %half : f32
    %g = arith.mulf %h, %p : f32
    %g16 = arith.truncf %g : f32 to f16
    linalg.yield %g16 : f16
  } -> tensor<64x64xf16>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x64xf16> into memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// SiLU as torch decomposes it, x * sigmoid(x) with sigmoid 1 / (1 + exp(-x)), after a batch matmul.
// CHECK-LABEL: func.func @silu
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[B:.+]] = gpu.block_id z
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:         %[[NX:.+]] = arith.negf %[[ACC]]#0 : vector<4xf32>
// CHECK:         %[[EX:.+]] = math.exp %[[NX]] : vector<4xf32>
// CHECK:         %[[D:.+]] = arith.addf %[[EX]], %{{.+}} : vector<4xf32>
// CHECK:         %[[SIG:.+]] = arith.divf %{{.+}}, %[[D]] : vector<4xf32>
// CHECK:         %[[S:.+]] = arith.mulf %[[ACC]]#0, %[[SIG]] : vector<4xf32>
// CHECK:         vector.transfer_write %[[S]], %[[OUT]][%[[B]], %{{.+}}, %{{.+}}] {{.*}} : vector<4xf32>, memref<3x64x64xf32
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @silu() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<3x64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<3x64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<3x64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x64x64xf32>
  %e = tensor.empty() : tensor<3x64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<3x64x64xf32>) -> tensor<3x64x64xf32>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<3x64x64xf32>, tensor<3x64x64xf32>) outs(%z : tensor<3x64x64xf32>) -> tensor<3x64x64xf32>
  %eo = tensor.empty() : tensor<3x64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm : tensor<3x64x64xf32>) outs(%eo : tensor<3x64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %nx = arith.negf %x : f32
    %ex = math.exp %nx : f32
    %d = arith.addf %ex, %one : f32
    %sig = arith.divf %one, %d : f32
    %s = arith.mulf %x, %sig : f32
    linalg.yield %s : f32
  } -> tensor<3x64x64xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<3x64x64xf32> into memref<3x64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Scaling by a scalar constant of the body (an attention score's 1/sqrt(d)).
// CHECK-LABEL: func.func @scale_const
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:         %[[S:.+]] = arith.constant 1.250000e-01 : f32
// CHECK:         %[[SV:.+]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK:         %[[Y:.+]] = arith.mulf %[[ACC]]#0, %[[SV]] : vector<4xf32>
// CHECK:         vector.transfer_write %[[Y]], %[[OUT]]{{.*}} : vector<4xf32>, memref<64x64xf32
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @scale_const() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %eo = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x64xf32>) outs(%eo : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.constant 0.125 : f32
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Scaling by a 0-d tensor (a runtime scalar): one scalar load, broadcast along n.
// CHECK-LABEL: func.func @scale_0d
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[S:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<f32,
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(3)
// CHECK:         %[[X:.+]] = memref.load %[[S]][] : memref<f32,
// CHECK:         %[[XV:.+]] = vector.broadcast %[[X]] : f32 to vector<4xf32>
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:         %[[Y:.+]] = arith.mulf %[[ACC]]#0, %[[XV]] : vector<4xf32>
// CHECK:         %[[T:.+]] = arith.truncf %[[Y]] : vector<4xf32> to vector<4xf16>
// CHECK:         vector.transfer_write %[[T]], %[[OUT]]{{.*}} : vector<4xf16>, memref<64x64xf16
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @scale_0d() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<f32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %x0 = iree_codegen.load_from_buffer %2 : memref<f32, #hal.descriptor_type<storage_buffer>> -> tensor<f32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %eo = tensor.empty() : tensor<64x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %x0 : tensor<64x64xf32>, tensor<f32>) outs(%eo : tensor<64x64xf16>) {
  ^bb0(%x: f32, %p0: f32, %o: f16):
    %y = arith.mulf %x, %p0 : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x64xf16>
  iree_codegen.store_to_buffer %r, %3 : tensor<64x64xf16> into memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// The f32 result truncated to bf16: only bf16 vectors are stored.
// CHECK-LABEL: func.func @cast_bf16
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:         %[[T:.+]] = arith.truncf %[[ACC]]#0 : vector<4xf32> to vector<4xbf16>
// CHECK:         vector.transfer_write %[[T]], %[[OUT]]{{.*}} : vector<4xbf16>, memref<64x64xbf16
// CHECK-NOT:     vector.transfer_write {{.*}} vector<4xf32>
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @cast_bf16() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xbf16, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %eo = tensor.empty() : tensor<64x64xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x64xf32>) outs(%eo : tensor<64x64xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x64xbf16>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x64xbf16> into memref<64x64xbf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Bias (over n) + ReLU + truncf to f16 in one generic, as IREE forms a linear layer's
// activation.
// CHECK-LABEL: func.func @bias_relu_f16
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[BIAS:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(3)
// CHECK:         %[[C:.+]] = vector.transfer_read %[[BIAS]][%{{.+}}]{{.*}} : memref<64xf32, {{.*}}>, vector<4xf32>
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:         %[[Y:.+]] = arith.addf %[[ACC]]#0, %[[C]] : vector<4xf32>
// CHECK:         %[[R:.+]] = arith.maximumf %[[Y]], %{{.+}} : vector<4xf32>
// CHECK:         %[[T:.+]] = arith.truncf %[[R]] : vector<4xf32> to vector<4xf16>
// CHECK:         vector.transfer_write %[[T]], %[[OUT]]{{.*}} : vector<4xf16>, memref<64x64xf16
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @bias_relu_f16() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %x0 = iree_codegen.load_from_buffer %2 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xf16>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %eo = tensor.empty() : tensor<64x64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %x0 : tensor<64x64xf32>, tensor<64xf32>) outs(%eo : tensor<64x64xf16>) {
  ^bb0(%x: f32, %p0: f32, %o: f16):
    %z0 = arith.constant 0.0 : f32
    %y = arith.addf %x, %p0 : f32
    %r0 = arith.maximumf %y, %z0 : f32
    %t = arith.truncf %r0 : f32 to f16
    linalg.yield %t : f16
  } -> tensor<64x64xf16>
  iree_codegen.store_to_buffer %r, %3 : tensor<64x64xf16> into memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A consumer that computes with its element's position (eager attention's causal mask:
// -10000 where the column is past the row): each output vector's positions are its row,
// broadcast, and its first column plus each lane's.
// CHECK-LABEL: func.func @causal_mask_positions
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:         %[[ROW:.+]] = vector.broadcast %{{.+}} : index to vector<4xindex>
// CHECK:         %[[COL0:.+]] = vector.broadcast %{{.+}} : index to vector<4xindex>
// CHECK:         %[[COLS:.+]] = arith.addi %[[COL0]], %{{.+}} : vector<4xindex>
// CHECK:         %[[LATER:.+]] = arith.cmpi ugt, %[[COLS]], %[[ROW]] : vector<4xindex>
// CHECK:         arith.select %[[LATER]], %{{.+}}, %[[ACC]]#0 : vector<4xi1>, vector<4xf32>
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @causal_mask_positions() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %later = arith.cmpi ugt, %j, %i : index
    %masked = arith.constant -10000.0 : f32
    %y = arith.select %later, %masked, %x : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A residual read transposed (r[n, m], as ConvNeXt adds its NCHW input after a channels-last
// product): along n, the output vector's loop, r's elements lie a row apart, so each lane
// loads its own and the four make the vector (read before the K loop, as every epilogue read).
// CHECK-LABEL: func.func @residual_transposed
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[RES:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK-COUNT-4: memref.load %[[RES]][%{{.+}}, %{{.+}}] : memref<64x64xf32
// CHECK:         %[[R:.+]] = vector.from_elements %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK:         %[[ACC:.+]]:4 = scf.for
// CHECK:         arith.addf %[[ACC]]#0, %[[R]] : vector<4xf32>
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @residual_transposed() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %res = iree_codegen.load_from_buffer %2 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %res : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %y = arith.addf %x, %t : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %r, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
