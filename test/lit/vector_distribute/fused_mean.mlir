// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute, canonicalize, cse)' | filecheck %s
// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{max-workgroups=5}, canonicalize, cse)' | filecheck %s --check-prefix=MAXWG

// The mean of rows (24x640 f32; also the first dispatch of LayerNorm): the sum and a row map
// dividing it by 640, one sweep (160 vectors of 4 over 256 threads, a loop over the chunks as
// for a lone reduction); every thread gets the total from LDS, thread 0 stores the mean.
// With one workgroup looping over rows, a barrier comes before each row's LDS writes (the
// previous row's partials may still be read): MAXWG.
// CHECK-LABEL: func.func @mean
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    lds_partials = array<i64: 32, 1>, {{.*}} passes = 1 : i64, {{.*}} row = "global"
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<24x640xf32
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<24xf32
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 256
// CHECK:         %[[LANE:.+]] = arith.remui %[[TID]], %c8
// CHECK:         %[[SG:.+]] = arith.divui %[[TID]], %c8
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %c24 step %c24 {
// CHECK:           scf.for %{{.+}} = %[[TID]] to %c160 step %c256 iter_args
// CHECK:             vector.transfer_read %[[X]][%[[ROW]], %{{.+}}]
// CHECK:             arith.addf
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[FIRST:.+]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK:           scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store %{{.+}}, %[[LDS]][%[[SG]], %c0] : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK:           scf.for %[[K:.+]] = %[[LANE]] to %c32 step %c8
// CHECK-NEXT:        memref.load %[[LDS]][%[[K]], %c0] : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[TOTAL:.+]] = arith.addf
// CHECK:           %[[SUM:.+]] = arith.addf %[[TOTAL]], %{{.+}} : f32
// CHECK:           %[[MEAN:.+]] = arith.divf %[[SUM]], %{{.+}} : f32
// CHECK:           %[[T0:.+]] = arith.cmpi eq, %[[TID]], %c0
// CHECK:           scf.if %[[T0]] {
// CHECK-NEXT:        memref.store %[[MEAN]], %[[OUT]][%[[ROW]]]
// MAXWG-LABEL: func.func @mean
// MAXWG:         scf.for
// MAXWG:           gpu.barrier
// MAXWG:           scf.if
// MAXWG-NEXT:        memref.store {{.+}} : memref<32x1xf32, #gpu.address_space<workgroup>>
// MAXWG-NEXT:      }
// MAXWG-NEXT:      gpu.barrier
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @mean() {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 6.400000e+02 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<24x640xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<24xf32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [24, 640], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<24x640xf32>> -> tensor<24x640xf32>
  %3 = tensor.empty() : tensor<24xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<24xf32>) -> tensor<24xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<24x640xf32>) outs(%4 : tensor<24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %7 = arith.addf %in, %out : f32
    linalg.yield %7 : f32
  } -> tensor<24xf32>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%5 : tensor<24xf32>) outs(%3 : tensor<24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %7 = arith.divf %in, %cst_0 : f32
    linalg.yield %7 : f32
  } -> tensor<24xf32>
  iree_tensor_ext.dispatch.tensor.store %6, %1, offsets = [0], sizes = [24], strides = [1] : tensor<24xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<24xf32>>
  return
}
