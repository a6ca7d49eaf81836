// --remarks=missed: each pass that looks at a dispatch and leaves it to IREE says why, at the
// dispatch root; --remarks=all also names the pass that lowered a dispatch.
// RUN: lds-opt %s --split-input-file --verify-diagnostics --remarks=missed --target=cuda \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds, ldsopt-preload-transposed, ldsopt-lower-elementwise)'
// RUN: lds-opt %s --split-input-file --remarks=all --target=cuda \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds, ldsopt-preload-transposed, ldsopt-lower-elementwise)' \
// RUN:   -o %t 2>&1 | filecheck %s --check-prefix=ALL
// RUN: lds-opt %s --split-input-file --target=cuda \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds, ldsopt-preload-transposed, ldsopt-lower-elementwise)' \
// RUN:   -o %t 2>&1 | filecheck %s --check-prefix=NONE --allow-empty

// NONE-NOT: remark

#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// A matmul of f32 operands into an f16 result: the matmul pass takes f32 products into f32 (and
// 16-bit ones into f32 or into their own type) only.
func.func @matmul_f16_out() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f16
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x32xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x32xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<32x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32x64xf32>
  %e = tensor.empty() : tensor<64x64xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
  // expected-remark @+3 {{ldsopt-matmul-lds: left to IREE: operands f32 x f32 -> f16: takes two operands of one type into its accumulator (f32 -> f32, f16 -> f32, bf16 -> f32, i8 -> i32), or f16 and bf16 into themselves}}
  // expected-remark @+2 {{ldsopt-preload-transposed: left to IREE: computes with linalg.matmul; this pass takes one linalg.generic}}
  // expected-remark @+1 {{ldsopt-lower-elementwise: left to IREE: computes with linalg.matmul}}
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%z : tensor<64x64xf16>) -> tensor<64x64xf16>
  iree_codegen.store_to_buffer %r, %2 : tensor<64x64xf16> into memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}
// ALL: remarks.mlir:{{[0-9]+}}:8: remark: ldsopt-matmul-lds: left to IREE: operands f32 x f32 -> f16

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// Two generics fused in one dispatch (an exp feeding a negation that reads it transposed): the
// matmul pass takes a contraction and its elementwise consumer read through the identity; the
// elementwise pass fuses such a chain only into a generic it takes, and this
// one reads its input transposed against its fastest dim; no other pass takes several roots.
func.func @fused_two_generics() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<8x4xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<4x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<4x8xf32>
  %3 = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+3 {{ldsopt-matmul-lds: left to IREE: a linalg.generic with a fused linalg.generic: the consumer reads the matmul's result through a non-identity map}}
  // expected-remark @+2 {{ldsopt-preload-transposed: left to IREE: 2 ops fused in one dispatch}}
  // expected-remark @+1 {{ldsopt-lower-elementwise: left to IREE: 2 ops fused in one dispatch}}
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<4x8xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = math.exp %in : f32
    linalg.yield %5 : f32
  } -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %7 = arith.negf %in : f32
    linalg.yield %7 : f32
  } -> tensor<8x4xf32>
  iree_codegen.store_to_buffer %6, %1 : tensor<8x4xf32> into memref<8x4xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
// Lowered by the elementwise pass: the passes before it leave it, and with --remarks=missed
// a dispatch that one pass lowered has no remark.
func.func @negate() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16xf32>
  %3 = tensor.empty() : tensor<16xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%2 : tensor<16xf32>) outs(%3 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.negf %in : f32
    linalg.yield %5 : f32
  } -> tensor<16xf32>
  iree_codegen.store_to_buffer %4, %1 : tensor<16xf32> into memref<16xf32, #hal.descriptor_type<storage_buffer>>
  return
}
// ALL: remark: lowered by ldsopt-lower-elementwise
