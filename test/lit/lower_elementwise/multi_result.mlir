// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-lower-elementwise, canonicalize, cse)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-lower-elementwise)' -o %t

#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// An elementwise generic of two results, as IREE forms a masked score and its boolean map
// (the i1 result stored as i8 by IREE, extui in the body; the second binding at an offset of
// the same buffer): a threshold row broadcast over 37 rows of 132, each thread computing one
// vector of 4 (f32, the narrowest width of the operands) and writing both results at it.
// CHECK-LABEL: func.func @masked_score
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK-DAG:     %[[SCORES:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<37x132xf32
// CHECK-DAG:     %[[MAP:.+]] = hal.interface.binding.subspan {{.*}} binding(3) {{.*}} : memref<37x132xi8, strided<[132, 1], offset: ?>
// CHECK:         scf.for
// CHECK:           %[[S:.+]] = vector.transfer_read {{.*}} : memref<37x132xf32, {{.*}}>, vector<4xf32>
// CHECK:           %[[T:.+]] = vector.transfer_read {{.*}} : memref<132xf32, {{.*}}>, vector<4xf32>
// CHECK:           %[[KEEP:.+]] = arith.cmpf ogt, %[[S]], %[[T]] : vector<4xf32>
// CHECK:           %[[M:.+]] = arith.select %[[KEEP]], %[[S]], %{{.+}} : vector<4xi1>, vector<4xf32>
// CHECK:           %[[B:.+]] = arith.extui %[[KEEP]] : vector<4xi1> to vector<4xi8>
// CHECK:           vector.transfer_write %[[M]], %[[SCORES]]
// CHECK:           vector.transfer_write %[[B]], %[[MAP]]
// CHECK-NOT:     linalg.generic
func.func @masked_score() {
  %c0 = arith.constant 0 : index
  %c19584 = arith.constant 19584 : index
  %low = arith.constant -1.000000e+04 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<37x132xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<132xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<37x132xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c19584) flags(Indirect) : memref<37x132xi8, strided<[132, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %s = iree_codegen.load_from_buffer %0 : memref<37x132xf32, #hal.descriptor_type<storage_buffer>> -> tensor<37x132xf32>
  %t = iree_codegen.load_from_buffer %1 : memref<132xf32, #hal.descriptor_type<storage_buffer>> -> tensor<132xf32>
  %e = tensor.empty() : tensor<37x132xf32>
  %eb = tensor.empty() : tensor<37x132xi8>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s, %t : tensor<37x132xf32>, tensor<132xf32>) outs(%e, %eb : tensor<37x132xf32>, tensor<37x132xi8>) {
  ^bb0(%a: f32, %b: f32, %o: f32, %ob: i8):
    %keep = arith.cmpf ogt, %a, %b : f32
    %m = arith.select %keep, %a, %low : f32
    %k8 = arith.extui %keep : i1 to i8
    linalg.yield %m, %k8 : f32, i8
  } -> (tensor<37x132xf32>, tensor<37x132xi8>)
  iree_codegen.store_to_buffer %r#0, %2 : tensor<37x132xf32> into memref<37x132xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %r#1, %3 : tensor<37x132xi8> into memref<37x132xi8, strided<[132, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @masked_score {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// Refused: the two results written in different dim orders (the second transposed): one
// vector index cannot serve both stores.
// CHECK-LABEL: func.func @results_transposed
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic
func.func @results_transposed() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<36x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<36x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<36x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x36xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %0 : memref<36x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<36x64xf32>
  %b = iree_codegen.load_from_buffer %1 : memref<36x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<36x64xf32>
  %e = tensor.empty() : tensor<36x64xf32>
  %et = tensor.empty() : tensor<64x36xf32>
  // expected-remark @+1 {{ldsopt-lower-elementwise: left to IREE: its results are written in different dim orders}}
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<36x64xf32>, tensor<36x64xf32>) outs(%e, %et : tensor<36x64xf32>, tensor<64x36xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32, %ot: f32):
    %s = arith.addf %x, %y : f32
    %d = arith.subf %x, %y : f32
    linalg.yield %s, %d : f32, f32
  } -> (tensor<36x64xf32>, tensor<64x36xf32>)
  iree_codegen.store_to_buffer %r#0, %2 : tensor<36x64xf32> into memref<36x64xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %r#1, %3 : tensor<64x36xf32> into memref<64x36xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @results_transposed {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
