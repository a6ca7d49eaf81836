// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{max-workgroups=2})' | filecheck %s

// 13 rows on 2 workgroups: each loops over rows (grid-stride), so a barrier comes before the
// LDS write (the previous row's partials may still be being read) and one after it.
// CHECK-LABEL: func.func @row_sum_13
// CHECK-SAME:    parallel = array<i64: 1, 7, 1, 1>
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[BID:.+]] = gpu.block_id x upper_bound 2
// CHECK:         scf.for %[[ROW:.+]] = %[[BID]] to %c13 step %c2 {
// CHECK:           scf.for
// CHECK:             vector.transfer_read %{{.+}}[%[[ROW]], %{{.+}}]
// CHECK:           gpu.shuffle xor
// CHECK:           %[[FIRST:.+]] = arith.cmpi eq
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store %{{.+}}, %[[LDS]]
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK:           memref.load %[[LDS]]
// CHECK:           memref.store {{.*}} : memref<13xf32
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @row_sum_13() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<13x1000xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<13xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<13x1000xf32, #hal.descriptor_type<storage_buffer>> -> tensor<13x1000xf32>
  %3 = tensor.empty() : tensor<13xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<13xf32>) -> tensor<13xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<13x1000xf32>) outs(%4 : tensor<13xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<13xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<13xf32> into memref<13xf32, #hal.descriptor_type<storage_buffer>>
  return
}
