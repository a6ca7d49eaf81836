// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' -o %t

#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A batch matmul whose init a fused generic broadcasts from a bias per batch and row (a
// grouped convolution's, as torch-mlir starts it): the accumulator starts at zero, and each
// stored piece adds the bias of its (batch, row), one scalar load broadcast along n.
// CHECK-LABEL: func.func @bias_rows
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[BIAS:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for
// CHECK:         %[[V:.+]] = memref.load %[[BIAS]][%{{.+}}, %{{.+}}] : memref<3x64xf32, {{.*}}>
// CHECK:         %[[VB:.+]] = vector.broadcast %[[V]] : f32 to vector<4xf32>
// CHECK:         %[[S:.+]] = arith.addf %{{.+}}, %[[VB]] : vector<4xf32>
// CHECK:         vector.transfer_write %[[S]]
func.func @bias_rows() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x64x32xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x32x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<3x64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<3x64x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x64x32xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<3x32x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x32x64xf32>
  %bias = iree_codegen.load_from_buffer %2 : memref<3x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x64xf32>
  %e = tensor.empty() : tensor<3x64x64xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias : tensor<3x64xf32>) outs(%e : tensor<3x64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x64x64xf32>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<3x64x32xf32>, tensor<3x32x64xf32>) outs(%init : tensor<3x64x64xf32>) -> tensor<3x64x64xf32>
  iree_codegen.store_to_buffer %mm, %3 : tensor<3x64x64xf32> into memref<3x64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A bias per column: read as vectors along n, as a loaded init is.
// CHECK-LABEL: func.func @bias_columns
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[BIAS:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         scf.for
// CHECK:         %[[V:.+]] = vector.transfer_read %[[BIAS]][%{{.+}}]{{.*}} : memref<64xf32, {{.*}}>, vector<4xf32>
// CHECK:         arith.addf %{{.+}}, %[[V]] : vector<4xf32>
func.func @bias_columns() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x32xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x32xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<32x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32x64xf32>
  %bias = iree_codegen.load_from_buffer %2 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %mm, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// An init computed with arithmetic (not a plain broadcast) is left to IREE, with the reason.
// CHECK-LABEL: func.func @scaled_init
// CHECK-NOT:     ldsopt.lowered_by
func.func @scaled_init() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x32xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<64x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x32xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<32x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32x64xf32>
  %bias = iree_codegen.load_from_buffer %2 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: a linalg.matmul whose init a fused linalg.generic computes: takes a broadcast of one loaded tensor along ascending dims, no arithmetic}}
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %mm, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
