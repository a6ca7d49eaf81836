// The `unroll` option overrides the plan's choice of chunks loaded per iteration.
// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{unroll=1})' | filecheck %s --check-prefix=U1
// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{unroll=3})' | filecheck %s --check-prefix=U3
// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{unroll=8})' | filecheck %s --check-prefix=U8
// RUN: not lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{unroll=-2})' 2>&1 | filecheck %s --check-prefix=BAD

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// Row sums of 4x4096 f32 on lavapipe: 1024 chunks of 4 per row over 256 threads, 4 each.

// unroll=1: one load an iteration, nothing left over.
// U1-LABEL: func.func @row_sum
// U1-SAME:    unroll = 1 : i64
// U1:         scf.for %{{.+}} = %thread_id_x to %c1024 step %c256 iter_args(%{{.+}} = %{{.+}}) -> (vector<4xf32>)
// U1-COUNT-1:   vector.transfer_read
// U1-NOT:       vector.transfer_read
// U1:           scf.yield

// unroll=3: one group of 3 (chunks c, c+256, c+512 while c+512 < 1024), then the one leftover
// chunk every thread has (4 = 3 + 1, the same for every thread): unguarded, no select.
// U3-LABEL: func.func @row_sum
// U3-SAME:    unroll = 3 : i64
// U3:         %[[MAIN:.+]]:2 = scf.for %[[C:.+]] = %thread_id_x to %c512 step %c768 iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %thread_id_x) -> (vector<4xf32>, index)
// U3-COUNT-3:   vector.transfer_read
// U3:           %[[N:.+]] = arith.addi %[[C]], %c768
// U3:           scf.yield %{{.+}}, %[[N]]
// U3-NOT:     arith.minui
// U3:         %[[COL:.+]] = arith.muli %[[MAIN]]#1, %c4
// U3:         %[[X:.+]] = vector.transfer_read %{{.+}}[%{{.+}}, %[[COL]]]
// U3-NEXT:    arith.addf %[[X]], %[[MAIN]]#0 : vector<4xf32>
// U3-NOT:     arith.select
// U3:         gpu.shuffle xor

// unroll=8, more than a thread's 4 chunks: no main loop; the 4 chunks are leftovers, loaded
// at once, unguarded.
// U8-LABEL: func.func @row_sum
// U8-SAME:    unroll = 8 : i64
// U8-NOT:     scf.for {{.*}} iter_args
// U8-COUNT-4: vector.transfer_read
// U8-NOT:     arith.select
// U8:         gpu.shuffle xor

// BAD: <pass-pipeline>:1:{{[0-9]+}}: error: option 'unroll' of pass 'ldsopt-vector-distribute' takes >= 0; got '-2'
func.func @row_sum() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x4096xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<4xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<4x4096xf32, #hal.descriptor_type<storage_buffer>> -> tensor<4x4096xf32>
  %3 = tensor.empty() : tensor<4xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4xf32>) -> tensor<4xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<4x4096xf32>) outs(%4 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<4xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<4xf32> into memref<4xf32, #hal.descriptor_type<storage_buffer>>
  return
}
