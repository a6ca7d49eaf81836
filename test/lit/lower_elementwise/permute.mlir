// Permutations that keep the fastest dim (attention's head split with its bias): loops are
// renumbered in the output's order, the input is read through the permutation, 128-bit vectors
// along the kept fastest dim on both sides.
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-lower-elementwise, canonicalize, cse)' | filecheck %s

// CHECK-LABEL: func.func @head_split
// CHECK-SAME: ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK: scf.for %[[G:.+]] = %{{.+}} to %c1024 step %c1024
// CHECK:   %[[C:.+]] = arith.remui %[[G]], %c8
// CHECK:   %[[D:.+]] = arith.muli %[[C]], %c8
// CHECK:   %[[R:.+]] = arith.divui %[[G]], %c8
// CHECK:   %[[S:.+]] = arith.remui %[[R]], %c16
// CHECK:   %[[R2:.+]] = arith.divui %[[R]], %c16
// CHECK:   %[[H:.+]] = arith.remui %[[R2]], %c4
// CHECK:   %[[B:.+]] = arith.divui %[[R2]], %c4
// CHECK:   %[[X:.+]] = vector.transfer_read %{{.+}}[%[[B]], %[[S]], %[[H]], %[[D]]]{{.*}} : memref<2x16x4x64xf16, {{.+}}>, vector<8xf16>
// CHECK:   %[[BIAS:.+]] = vector.transfer_read %{{.+}}[%[[H]], %[[D]]]{{.*}} : memref<4x64xf16, {{.+}}>, vector<8xf16>
// CHECK:   %[[Y:.+]] = arith.addf %[[X]], %[[BIAS]] : vector<8xf16>
// CHECK:   vector.transfer_write %[[Y]], %{{.+}}[%[[B]], %[[H]], %[[S]], %[[D]]]{{.*}} : vector<8xf16>, memref<2x4x16x64xf16, {{.+}}>
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @head_split() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x16x4x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2x4x16x64xf16, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2x16x4x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x16x4x64xf16>
  %b = iree_codegen.load_from_buffer %1 : memref<4x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<2x4x16x64xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %b : tensor<2x16x4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<2x4x16x64xf16>) {
  ^bb0(%in: f16, %bias: f16, %out: f16):
    %s = arith.addf %in, %bias : f16
    linalg.yield %s : f16
  } -> tensor<2x4x16x64xf16>
  iree_codegen.store_to_buffer %y, %2 : tensor<2x4x16x64xf16> into memref<2x4x16x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}
