// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-vector-distribute, canonicalize, cse)' | filecheck %s

// BERT's pooler as IREE 3.13 forms it for CUDA from a torch export (taken from one, lowering
// config dropped): the first token's hidden state, a memref.subview of the last layer's output
// loaded whole, times the dense weight [out, in], then bias and tanh, stored into a slice of
// the output binding. A product of one row: each of the weight's 768 rows is a row reduction
// against the token's vector (a column operand), the bias and tanh its row epilogue.
// CHECK-LABEL: func.func @main_dispatch_8_matmul_1x768x768_f16xf16xf32
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK:         %[[H:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<1x512x1x768xf16
// CHECK:         %[[W:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<768x768xf16
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(3) {{.*}} : memref<1x768xf16, strided<[768, 1], offset: ?>
// CHECK:         %[[X:.+]] = memref.subview %[[H]][0, 0, 0, 0] [1, 1, 1, 768]
// CHECK:         scf.for %{{.+}} = %{{.+}} to %c768
// CHECK:           vector.transfer_read %[[X]][%{{.+}}, %[[COL:[0-9]+]]]{{.*}} vector<8xf16>
// CHECK-NEXT:      vector.transfer_read %[[W]][%{{.+}}, %[[COL]]]{{.*}} vector<8xf16>
// CHECK:           gpu.shuffle xor
// CHECK:           math.tanh
// CHECK:           memref.store %{{.+}}, %[[OUT]][
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @main_dispatch_8_matmul_1x768x768_f16xf16xf32() {
  %c786432 = arith.constant 786432 : index
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1x512x1x768xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<768x768xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly) : memref<1x768xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c786432) flags(Indirect) : memref<1x768xf16, strided<[768, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %1 : memref<768x768xf16, #hal.descriptor_type<storage_buffer>> -> tensor<768x768xf16>
  %5 = iree_codegen.load_from_buffer %2 : memref<1x768xf16, #hal.descriptor_type<storage_buffer>> -> tensor<1x768xf16>
  %6 = tensor.empty() : tensor<1x768xf16>
  %7 = tensor.empty() : tensor<1x768xf32>
  %subview = memref.subview %0[0, 0, 0, 0] [1, 1, 1, 768] [1, 1, 1, 1] : memref<1x512x1x768xf16, #hal.descriptor_type<storage_buffer>> to memref<1x768xf16, strided<[393216, 1]>, #hal.descriptor_type<storage_buffer>>
  %8 = iree_codegen.load_from_buffer %subview : memref<1x768xf16, strided<[393216, 1]>, #hal.descriptor_type<storage_buffer>> -> tensor<1x768xf16>
  %9 = linalg.fill ins(%cst : f32) outs(%7 : tensor<1x768xf32>) -> tensor<1x768xf32>
  %10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%8, %4 : tensor<1x768xf16>, tensor<768x768xf16>) outs(%9 : tensor<1x768xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %12 = arith.extf %in : f16 to f32
    %13 = arith.extf %in_0 : f16 to f32
    %14 = arith.mulf %12, %13 : f32
    %15 = arith.addf %out, %14 : f32
    linalg.yield %15 : f32
  } -> tensor<1x768xf32>
  %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%10, %5 : tensor<1x768xf32>, tensor<1x768xf16>) outs(%6 : tensor<1x768xf16>) {
  ^bb0(%in: f32, %in_0: f16, %out: f16):
    %12 = arith.truncf %in : f32 to f16
    %13 = arith.addf %12, %in_0 : f16
    %14 = math.tanh %13 : f16
    linalg.yield %14 : f16
  } -> tensor<1x768xf16>
  iree_codegen.store_to_buffer %11, %3 : tensor<1x768xf16> into memref<1x768xf16, strided<[768, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  return
}