// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' -o %t

#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// The fused consumer adds a slice of a wider tensor (columns 64 to 127 of 192: MobileBERT's
// residual, kept by IREE in a wider buffer), as CUDA/HIP spell it: a memref.subview of the
// binding. The consumer reads it through that view, rows 192 floats apart, at each stored
// piece's (m, n) (before the K loop, as the consumer's other inputs are).
// CHECK-LABEL: func.func @residual_subview
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[R:.+]] = memref.subview %{{.+}}[0, 64] [64, 64] [1, 1]
// CHECK-NOT:     linalg.generic
// CHECK:         %[[V:.+]] = vector.transfer_read %[[R]][%{{.+}}, %{{.+}}]{{.*}} : memref<64x64xf32, strided<[192, 1], offset: 64>{{.*}}>, vector<4xf32>
// CHECK:         scf.for
// CHECK:         %[[S:.+]] = arith.addf %{{.+}}, %[[V]] : vector<4xf32>
// CHECK:         vector.transfer_write %[[S]]
func.func @residual_subview() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x32xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x192xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %sv = memref.subview %2[0, 64] [64, 64] [1, 1] : memref<64x192xf32, #hal.descriptor_type<storage_buffer>> to memref<64x64xf32, strided<[192, 1], offset: 64>, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x32xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<32x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32x64xf32>
  %r = iree_codegen.load_from_buffer %sv : memref<64x64xf32, strided<[192, 1], offset: 64>, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %r : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %y, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// The same as Vulkan spells it (MobileBERT's, as IREE forms it there): a dispatch.tensor.load
// of part of the bound 1x64x192 tensor, its unit dim dropped. The kernel views the slice once
// (a subview of the binding, at its offset) and reads it there.
// CHECK-LABEL: func.func @residual_dispatch_tensor
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[R:.+]] = memref.subview %{{.+}}[0, 0, 64] [1, 64, 64] [1, 1, 1] : memref<1x64x192xf32, {{.*}}> to memref<64x64xf32, strided<[192, 1], offset: 64>
// CHECK-NOT:     iree_tensor_ext.dispatch.tensor.load
// CHECK:         %[[V:.+]] = vector.transfer_read %[[R]]
// CHECK:         scf.for
// CHECK:         arith.addf %{{.+}}, %[[V]] : vector<4xf32>
func.func @residual_dispatch_tensor() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x32xf32>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x64xf32>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x64x192xf32>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x64xf32>>
  %a = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [64, 32], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x32xf32>> -> tensor<64x32xf32>
  %b = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [32, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x64xf32>> -> tensor<32x64xf32>
  %r = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0, 64], sizes = [1, 64, 64], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x64x192xf32>> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %r : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  iree_tensor_ext.dispatch.tensor.store %y, %3, offsets = [0, 0], sizes = [64, 64], strides = [1, 1] : tensor<64x64xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x64xf32>>
  return
}

// -----

#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// An operand that is a slice: the operand copies (and TMA's maps on sm_90a) read whole
// tensors, so the product is left to IREE, saying why.
// CHECK-LABEL: func.func @operand_slice
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.matmul
func.func @operand_slice() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x96xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %sv = memref.subview %0[0, 32] [64, 32] [1, 1] : memref<64x96xf32, #hal.descriptor_type<storage_buffer>> to memref<64x32xf32, strided<[96, 1], offset: 32>, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %sv : memref<64x32xf32, strided<[96, 1], offset: 32>, #hal.descriptor_type<storage_buffer>> -> tensor<64x32xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<32x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: reads part of a binding (a tensor slice) as an operand or init of the product; ldsopt-matmul-lds takes slices in its fused consumer's inputs}}
  %mm = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %mm, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
