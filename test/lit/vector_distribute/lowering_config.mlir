// A user's layout configs are honoured (compilation_info, or a lowering_config marked
// ldsopt.user_config, as lds-run marks the configs of a source program). Seed 001's two
// cases (legacy syntax, upgraded on parse; gfx942 from the variant) keep their #tuning: 256
// threads, subgroups of 64, 4 subgroups on the reduced dim.
// RUN: lds-opt %S/../../seeds/seed001_reduce_4x4096.mlir --pass-pipeline='builtin.module(ldsopt-vector-distribute)' | filecheck %s --check-prefix=SEED2
// RUN: lds-opt %S/../../seeds/seed001_reduce_4096.mlir --pass-pipeline='builtin.module(ldsopt-vector-distribute)' | filecheck %s --check-prefix=SEED1
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute)' | filecheck %s

// 4x4096, thread_basis [[4, 16], [0, 1]]: 4 rows x 16 lanes per subgroup (reduction lanes
// fastest: shuffles at 8, 4, 2, 1), subgroup_basis [[1, 4], [0, 1]]: 4 subgroups per row;
// reduction [0, 256] = 64 threads x vectors of 4. LDS: 4 subgroups x 4 rows. Read-back: 4
// lanes per row, 16 apart (xor 32, 16), the 16 lanes between them read the other rows.
// SEED2:       #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<BaseLowering> workgroup_size = [256, 1, 1] subgroup_size = 64>
// SEED2-LABEL: func.func @reduce_fp16_dispatch_0_generic_4x4096_f32
// SEED2-SAME:    lds_partials = array<i64: 4, 4>, parallel = array<i64: 1, 1, 4, 1>, parallel_dims = array<i64: 0>, reduced_dims = array<i64: 1>, reduction = array<i64: 4, 16, 16, 4>, source = "lowering_config", unroll = 4 : i64, vector_side = "reduction"
// SEED2:         %[[TID:.+]] = gpu.thread_id x upper_bound 256
// SEED2:         %[[LANE:.+]] = arith.remui %[[TID]], %c64
// SEED2:         %[[LANE_R:.+]] = arith.remui %[[LANE]], %c16
// SEED2:         %[[LANE_P:.+]] = arith.divui %[[LANE]], %c16
// SEED2:         %[[SG:.+]] = arith.divui %[[TID]], %c64
// SEED2:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<4x4xf32, #gpu.address_space<workgroup>>
// The config states the layout, the plan the unroll: 16 chunks of 4 floats per thread, 4 loads
// per iteration (chunks c, c+64, c+128, c+192), no leftovers.
// SEED2:         scf.for %{{.+}} = %{{.+}} to %c832 step %c256 iter_args(%{{.+}} = %{{.+}}) -> (vector<4xf32>)
// SEED2-COUNT-4:   vector.transfer_read {{.*}} : memref<4x4096xf32, {{.*}}>, vector<4xf32>
// SEED2-NOT:       vector.transfer_read
// SEED2:         gpu.shuffle xor %{{.+}}, %c8_i32, %c64_i32 : f32
// SEED2:         gpu.shuffle xor %{{.+}}, %c4_i32, %c64_i32 : f32
// SEED2:         gpu.shuffle xor %{{.+}}, %c2_i32, %c64_i32 : f32
// SEED2:         gpu.shuffle xor %{{.+}}, %c1_i32, %c64_i32 : f32
// SEED2:         %[[FIRST:.+]] = arith.cmpi eq, %[[LANE_R]], %c0
// SEED2:         scf.if %[[FIRST]] {
// SEED2-NEXT:      memref.store %{{.+}}, %[[LDS]][%[[SG]], %[[LANE_P]]] : memref<4x4xf32, #gpu.address_space<workgroup>>
// SEED2:         gpu.barrier
// SEED2:         scf.for %[[K:.+]] = %{{.+}} to %c4 step %c4
// SEED2:           memref.load %[[LDS]][%[[K]], %{{.+}}]
// SEED2:         gpu.shuffle xor %{{.+}}, %c32_i32, %c64_i32 : f32
// SEED2:         gpu.shuffle xor %{{.+}}, %c16_i32, %c64_i32 : f32
// SEED2:         scf.if
// SEED2:           memref.store %{{.+}} : memref<4xf32, #hal.descriptor_type<storage_buffer>>

// 4096 -> scalar, thread_basis [[64], [0]], subgroup_basis [[4], [0]], reduction [1024].
// SEED1-LABEL: func.func @reduce_fp16_dispatch_0_generic_4096_f32
// SEED1-SAME:    lds_partials = array<i64: 4, 1>, {{.*}} reduction = array<i64: 4, 4, 64, 4>, source = "lowering_config"
// SEED1:         memref.alloc() alignment = 16 : memref<4x1xf32, #gpu.address_space<workgroup>>
// SEED1-COUNT-6: gpu.shuffle xor
// SEED1:         gpu.barrier
// SEED1-COUNT-2: gpu.shuffle xor
// SEED1:         memref.store %{{.+}}[] : memref<f32, #hal.descriptor_type<storage_buffer>>

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// The "serial tail" (anchor case 6) in IREE 3.13's spelling, for lavapipe's 8 lanes: 8 lanes
// on 8 rows, 2 subgroups on rows and 2 on the reduced dim, 1 thread per subgroup on the
// reduced dim. No shuffles before LDS; both subgroups' partials of a row are read back (2
// lanes, xor 4) and combined.
// CHECK-LABEL: func.func @serial_tail
// CHECK-SAME:    lds_partials = array<i64: 2, 16>, parallel = array<i64: 2, 1, 8, 1>, {{.*}} reduction = array<i64: 2, 1, 1, 4>, source = "lowering_config"
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<2x16xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:     gpu.shuffle
// CHECK:         memref.store %{{.+}}, %[[LDS]]
// CHECK:         gpu.barrier
// CHECK:         scf.for %[[K:.+]] = %{{.+}} to %c2 step %c2
// CHECK:           memref.load %[[LDS]][%[[K]], %{{.+}}]
// CHECK:         gpu.shuffle xor %{{.+}}, %c4_i32, %c8_i32 : f32
// CHECK-NOT:     gpu.shuffle
// CHECK:         memref.store {{.*}} : memref<16xf32
func.func @serial_tail() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [32, 1, 1] subgroup_size = 8>} {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<16x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x8xf32>
  %3 = tensor.empty() : tensor<16xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<16xf32>) -> tensor<16xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x8xf32>) outs(%4 : tensor<16xf32>) attrs = {ldsopt.user_config, lowering_config = #iree_gpu.lowering_config<{workgroup = [16, 0], partial_reduction = [0, 8], lane_basis = [[8, 1], [0, 1]], subgroup_basis = [[2, 2], [0, 1]]}>} {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<16xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<16xf32> into memref<16xf32, #hal.descriptor_type<storage_buffer>>
  return
}
