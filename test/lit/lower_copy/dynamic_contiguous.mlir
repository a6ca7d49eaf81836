// A copy of dynamic rows whose rows are contiguous in both views (a ?x32 binding into another):
// the dynamic dim is not collapsed with the row (the row stays a static 32, copied in 16-byte
// vectors, both bindings 64-byte aligned at offset 0); the loop runs over rows x 8 vectors.
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-lower-copy)' | filecheck %s

// CHECK-LABEL: func.func @contiguous_rows()
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-copy"]
// CHECK:         %[[ROWS:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[ITEMS:.+]] = arith.muli %[[ROWS]], %c8 : index
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[ITEMS]] step %{{.+}} {
// CHECK:           %[[V:.+]] = vector.load %{{.+}} alignment = 16 : memref<?x32xf32, {{.*}}>, vector<4xf32>
// CHECK:           vector.store %[[V]], %{{.+}} alignment = 16 : memref<?x32xf32, {{.*}}>, vector<4xf32>
#layout3 = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @contiguous_rows() {
  %c0 = arith.constant 0 : index
  %n32 = hal.interface.constant.load layout(#layout3) ordinal(0) : i32
  %n = arith.index_castui %n32 : i32 to index
  %rows = iree_tensor_ext.dispatch.workload.ordinal %n, 0 : index
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x32xf32, #hal.descriptor_type<storage_buffer>>{%rows}
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<?x32xf32, #hal.descriptor_type<storage_buffer>>{%rows}
  linalg.copy ins(%0 : memref<?x32xf32, #hal.descriptor_type<storage_buffer>>) outs(%1 : memref<?x32xf32, #hal.descriptor_type<storage_buffer>>)
  return
}
