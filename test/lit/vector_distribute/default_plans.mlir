// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute)' | filecheck %s

// Default plans on lavapipe (subgroups of 8, vectors of at most 4 elements).

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// Row sums, 4x4096 f32, lavapipe (subgroups of 8): 32 subgroups of 8 lanes on each row,
// 128-bit vector loads, 1024 vectors of 4 per row strided over 256 threads: each thread's 4
// chunks (c, c+256, c+512, c+768) are loaded in one iteration (unroll 4, 64 bytes in flight)
// before they are added, no leftovers; then a butterfly over the 8 lanes (offsets 4, 2, 1),
// one partial per subgroup through LDS, and a second butterfly over the partials, which 8
// lanes read back (4 each, serially).
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    ldsopt.reduction_layout = {lanes = "reduction_fastest", lds_partials = array<i64: 32, 1>, parallel = array<i64: 1, 1, 1, 1>, parallel_dims = array<i64: 0>, reduced_dims = array<i64: 1>, reduction = array<i64: 32, 4, 8, 4>, source = "default", unroll = 4 : i64, vector_side = "reduction"}
// CHECK-DAG:     %[[W:.+]] = arith.constant 8 : i32
// CHECK-DAG:     %[[O4:.+]] = arith.constant 4 : i32
// CHECK-DAG:     %[[O2:.+]] = arith.constant 2 : i32
// CHECK-DAG:     %[[O1:.+]] = arith.constant 1 : i32
// CHECK-DAG:     %[[INIT:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 256
// CHECK:         %[[LANE:.+]] = arith.remui %[[TID]], %c8
// CHECK:         %[[SG:.+]] = arith.divui %[[TID]], %c8
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %c4 step %c4 {
// CHECK:           %[[ZEROS:.+]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK:           %[[ACC:.+]] = scf.for %[[CH:.+]] = %[[TID]] to %c256 step %c1024 iter_args(%[[A:.+]] = %[[ZEROS]]) -> (vector<4xf32>) {
// CHECK:             %[[COL0:.+]] = arith.muli %[[CH]], %c4
// CHECK:             %[[V0:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %[[COL0]]]{{.*}} : memref<4x4096xf32, {{.*}}>, vector<4xf32>
// CHECK:             %[[CH1:.+]] = arith.addi %[[CH]], %c256
// CHECK:             %[[COL1:.+]] = arith.muli %[[CH1]], %c4
// CHECK:             %[[V1:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %[[COL1]]]
// CHECK:             %[[CH2:.+]] = arith.addi %[[CH]], %c512
// CHECK:             %[[COL2:.+]] = arith.muli %[[CH2]], %c4
// CHECK:             %[[V2:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %[[COL2]]]
// CHECK:             %[[CH3:.+]] = arith.addi %[[CH]], %c768
// CHECK:             %[[COL3:.+]] = arith.muli %[[CH3]], %c4
// CHECK:             %[[V3:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %[[COL3]]]
// CHECK-NEXT:        %[[S0:.+]] = arith.addf %[[V0]], %[[A]] : vector<4xf32>
// CHECK-NEXT:        %[[S1:.+]] = arith.addf %[[V1]], %[[S0]] : vector<4xf32>
// CHECK-NEXT:        %[[S2:.+]] = arith.addf %[[V2]], %[[S1]] : vector<4xf32>
// CHECK-NEXT:        %[[S3:.+]] = arith.addf %[[V3]], %[[S2]] : vector<4xf32>
// CHECK-NEXT:        scf.yield %[[S3]]
// CHECK-NOT:       vector.transfer_read
// CHECK-COUNT-4:   vector.extract %[[ACC]]
// CHECK-COUNT-2:   arith.addf %{{.+}}, %{{.+}} : f32
// CHECK:           %[[T:.+]] = arith.addf %{{.+}}, %{{.+}} : f32
// CHECK:           %[[S4:.+]], %{{.+}} = gpu.shuffle xor %[[T]], %[[O4]], %[[W]] : f32
// CHECK:           %[[T4:.+]] = arith.addf %[[T]], %[[S4]] : f32
// CHECK:           %[[S2:.+]], %{{.+}} = gpu.shuffle xor %[[T4]], %[[O2]], %[[W]] : f32
// CHECK:           %[[T2:.+]] = arith.addf %[[T4]], %[[S2]] : f32
// CHECK:           %[[S1:.+]], %{{.+}} = gpu.shuffle xor %[[T2]], %[[O1]], %[[W]] : f32
// CHECK:           %[[PART:.+]] = arith.addf %[[T2]], %[[S1]] : f32
// CHECK:           %[[FIRST:.+]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK:           scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store %[[PART]], %[[LDS]][%[[SG]], %c0]
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK:           %[[K0:.+]] = arith.remui %[[TID]], %c8
// CHECK:           %[[RB:.+]] = scf.for %[[K:.+]] = %[[K0]] to %c32 step %c8 iter_args(%[[B:.+]] = %{{.+}}) -> (f32) {
// CHECK:             %[[P:.+]] = memref.load %[[LDS]][%[[K]], %{{.+}}] : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:             arith.addf %[[B]], %[[P]] : f32
// CHECK:           gpu.shuffle xor %[[RB]], %[[O4]], %[[W]]
// CHECK:           gpu.shuffle xor %{{.+}}, %[[O2]], %[[W]]
// CHECK:           %[[R1:.+]], %{{.+}} = gpu.shuffle xor %[[R:.+]], %[[O1]], %[[W]]
// CHECK:           %[[TOTAL:.+]] = arith.addf %[[R]], %[[R1]] : f32
// CHECK:           %[[WRITER:.+]] = arith.cmpi eq, %[[K0]], %c0
// CHECK:           %[[WRITES:.+]] = arith.andi %[[WRITER]], %{{.+}}
// CHECK:           scf.if %[[WRITES]] {
// CHECK:             %[[OUT:.+]] = arith.addf %[[TOTAL]], %[[INIT]] : f32
// CHECK:             memref.store %[[OUT]], %{{.+}}[%{{.+}}] : memref<4xf32, #hal.descriptor_type<storage_buffer>>
// CHECK-NOT:     gpu.barrier
// CHECK:         return
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

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A sum over the outer dim of 512x64 (IREE's form: a transposed input map). The vectors run
// along the 64 outputs: 8 lanes take 8 vectors of 4 outputs, 2 tiles of 32 outputs. 2
// workgroups leave lavapipe's 4 compute units idle, so the workgroup grows from 256 to 512
// threads (1024 would leave a thread 4 rows, fewer than 2 groups of 4), and every subgroup
// takes the rows r, r+64, ...; no lane shares an output (no shuffles before LDS); each lane writes its 4
// partials as one vector to its subgroup's row of the buffer; 8 lanes per output read back,
// lane k from row k: rows are padded from 32 to 36 floats so that the 8 reads hit 8 banks.
// A thread has 8 rows: 4 loads an iteration (rows r, r+64, r+128, r+192).
// CHECK-LABEL: func.func @col_sum
// CHECK-SAME:    lanes = "parallel_fastest", lds_partials = array<i64: 64, 36>, parallel = array<i64: 1, 1, 8, 4>, parallel_dims = array<i64: 1>, reduced_dims = array<i64: 0>, reduction = array<i64: 64, 8, 1, 1>, source = "default", unroll = 4 : i64
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 512
// CHECK:         %[[LANE:.+]] = arith.remui %[[TID]], %c8
// CHECK:         %[[SG:.+]] = arith.divui %[[TID]], %c8
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<64x36xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[TILE:.+]] = %{{.+}} to %c2 step %c2 {
// CHECK:           %[[ACC:.+]] = scf.for %[[R:.+]] = %[[SG]] to %c320 step %c256 iter_args
// CHECK:             vector.transfer_read %{{.+}}[%[[R]], %{{.+}}]{{.*}} : memref<512x64xf32, {{.*}}>, vector<4xf32>
// CHECK:             %[[R3:.+]] = arith.addi %[[R]], %c192
// CHECK:             vector.transfer_read %{{.+}}[%[[R3]], %{{.+}}]{{.*}} : memref<512x64xf32, {{.*}}>, vector<4xf32>
// CHECK-NOT:       vector.transfer_read
// CHECK-NOT:       gpu.shuffle
// CHECK:           %[[SLOT:.+]] = arith.muli %[[LANE]], %c4
// CHECK:           %[[VEC:.+]] = vector.from_elements
// CHECK-NEXT:      vector.transfer_write %[[VEC]], %[[LDS]][%[[SG]], %[[SLOT]]] {in_bounds = [true]} : vector<4xf32>, memref<64x36xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      gpu.barrier
// CHECK:           scf.for %{{.+}} = %{{.+}} to %c64 step %c8
// CHECK:             memref.load %[[LDS]]
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           scf.if
// CHECK:             memref.store {{.*}} : memref<64xf32
func.func @col_sum() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<512x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<512x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<512x64xf32>
  %3 = tensor.empty() : tensor<64xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<64xf32>) -> tensor<64xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<512x64xf32>) outs(%4 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<64xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<64xf32> into memref<64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A full reduction of a prime number of elements to a 0-D output: scalar reads (vector<1>),
// 10007 elements strided over 256 threads (39 or 40 each); the result is stored to memref<f32>.
// Unroll 16 (64 bytes of 4-byte loads): a loop over whole groups of 16 chunks, while the
// group's last chunk c + 15*256 < 10007, which also yields where the thread's leftovers start;
// then 8 leftover loads (40 % 16), each clamped to the last element and dropped when its chunk
// is past the end (threads with 39 chunks have 7 leftovers): a select on a broadcast flag, as
// SPIR-V 1.3 has no vector select on a scalar condition.
// CHECK-LABEL: func.func @sum_prime
// CHECK-SAME:    parallel_dims = array<i64>, reduced_dims = array<i64: 0>, reduction = array<i64: 32, 40, 8, 1>, source = "default", unroll = 16 : i64
// CHECK:         memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.block_id x upper_bound 1
// CHECK:         %[[MAIN:.+]]:2 = scf.for %[[C:.+]] = %thread_id_x to %c6167 step %c4096 iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %thread_id_x) -> (vector<1xf32>, index)
// CHECK-COUNT-16:  vector.transfer_read {{.*}} : memref<10007xf32, {{.*}}>, vector<1xf32>
// CHECK:           %[[NEXT:.+]] = arith.addi %[[C]], %c4096
// CHECK-COUNT-16:  arith.addf
// CHECK:           scf.yield %{{.+}}, %[[NEXT]] : vector<1xf32>, index
// CHECK:         %[[L1:.+]] = arith.addi %[[MAIN]]#1, %c256
// CHECK:         %[[OK0:.+]] = arith.cmpi ult, %[[MAIN]]#1, %c10007
// CHECK-NEXT:    %[[OK1:.+]] = arith.cmpi ult, %[[L1]], %c10007
// CHECK:         %[[K0:.+]] = arith.minui %[[MAIN]]#1, %c10006
// CHECK:         %[[X0:.+]] = vector.transfer_read %{{.+}}[%[[K0]]]
// CHECK-COUNT-7: vector.transfer_read
// CHECK-NEXT:    %[[Y0:.+]] = arith.addf %[[X0]], %[[MAIN]]#0 : vector<1xf32>
// CHECK-NEXT:    %[[M0:.+]] = vector.broadcast %[[OK0]] : i1 to vector<1xi1>
// CHECK-NEXT:    %[[A0:.+]] = arith.select %[[M0]], %[[Y0]], %[[MAIN]]#0 : vector<1xi1>, vector<1xf32>
// CHECK-NEXT:    %[[Y1:.+]] = arith.addf %{{.+}}, %[[A0]] : vector<1xf32>
// CHECK-NEXT:    %[[M1:.+]] = vector.broadcast %[[OK1]] : i1 to vector<1xi1>
// CHECK-NEXT:    arith.select %[[M1]], %[[Y1]], %[[A0]] : vector<1xi1>, vector<1xf32>
// CHECK-COUNT-6: arith.select
// CHECK-NOT:     vector.transfer_read
// CHECK:         memref.store %{{.+}}, %{{.+}}[] : memref<f32, #hal.descriptor_type<storage_buffer>>
func.func @sum_prime() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<10007xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<f32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<10007xf32, #hal.descriptor_type<storage_buffer>> -> tensor<10007xf32>
  %3 = tensor.empty() : tensor<f32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<f32>) -> tensor<f32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%2 : tensor<10007xf32>) outs(%4 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<f32>
  iree_codegen.store_to_buffer %5, %1 : tensor<f32> into memref<f32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// f16 max accumulated in f16: 16-bit values cross lanes as i32 (bitcast, extui, shuffle,
// trunci, bitcast); the identity is -inf (0xFC00).
// CHECK-LABEL: func.func @max_f16
// CHECK:         memref.alloc() alignment = 16 : memref<16x1xf16, #gpu.address_space<workgroup>>
// CHECK:         arith.constant dense<0xFC00> : vector<4xf16>
// CHECK:         arith.maximumf %{{.+}}, %{{.+}} : vector<4xf16>
// CHECK:         %[[I:.+]] = arith.bitcast %{{.+}} : f16 to i16
// CHECK:         %[[W:.+]] = arith.extui %[[I]] : i16 to i32
// CHECK:         %[[S:.+]], %{{.+}} = gpu.shuffle xor %[[W]], %c4_i32, %c8_i32 : i32
// CHECK:         %[[T:.+]] = arith.trunci %[[S]] : i32 to i16
// CHECK:         %[[F:.+]] = arith.bitcast %[[T]] : i16 to f16
// CHECK:         arith.maximumf %{{.+}}, %[[F]] : f16
func.func @max_f16() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0xFC00 : f16
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x300xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<32xf16, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<32x300xf16, #hal.descriptor_type<storage_buffer>> -> tensor<32x300xf16>
  %3 = tensor.empty() : tensor<32xf16>
  %4 = linalg.fill ins(%cst : f16) outs(%3 : tensor<32xf16>) -> tensor<32xf16>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<32x300xf16>) outs(%4 : tensor<32xf16>) {
  ^bb0(%in: f16, %out: f16):
    %6 = arith.maximumf %in, %out : f16
    linalg.yield %6 : f16
  } -> tensor<32xf16>
  iree_codegen.store_to_buffer %5, %1 : tensor<32xf16> into memref<32xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// f16 inputs, squared and summed in f32: the body's extf and mulf run on whole vectors.
// CHECK-LABEL: func.func @sumsq_f16_to_f32
// CHECK:         %[[V:.+]] = vector.transfer_read {{.*}} : memref<8x2048xf16, {{.*}}>, vector<4xf16>
// CHECK:         %[[X:.+]] = arith.extf %[[V]] : vector<4xf16> to vector<4xf32>
// CHECK:         %[[SQ:.+]] = arith.mulf %[[X]], %[[X]] : vector<4xf32>
// CHECK:         arith.addf %[[SQ]], %{{.+}} : vector<4xf32>
// CHECK:         gpu.shuffle xor {{.*}} : f32
func.func @sumsq_f16_to_f32() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x2048xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<8xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<8x2048xf16, #hal.descriptor_type<storage_buffer>> -> tensor<8x2048xf16>
  %3 = tensor.empty() : tensor<8xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<8xf32>) -> tensor<8xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<8x2048xf16>) outs(%4 : tensor<8xf32>) {
  ^bb0(%in: f16, %out: f32):
    %x = arith.extf %in : f16 to f32
    %sq = arith.mulf %x, %x : f32
    %6 = arith.addf %sq, %out : f32
    linalg.yield %6 : f32
  } -> tensor<8xf32>
  iree_codegen.store_to_buffer %5, %1 : tensor<8xf32> into memref<8xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// Unsigned min of i32: the identity is all ones (-1); 999 = 27 * 37 takes scalar reads.
// CHECK-LABEL: func.func @minui_i32
// CHECK:         memref.alloc() alignment = 16 : memref<32x1xi32, #gpu.address_space<workgroup>>
// CHECK:         arith.constant dense<-1> : vector<1xi32>
// CHECK:         arith.minui %{{.+}}, %{{.+}} : vector<1xi32>
// CHECK:         gpu.shuffle xor {{.*}} : i32
// CHECK:         arith.minui
func.func @minui_i32() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant -1 : i32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<20x999xi32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<20xi32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<20x999xi32, #hal.descriptor_type<storage_buffer>> -> tensor<20x999xi32>
  %3 = tensor.empty() : tensor<20xi32>
  %4 = linalg.fill ins(%cst : i32) outs(%3 : tensor<20xi32>) -> tensor<20xi32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<20x999xi32>) outs(%4 : tensor<20xi32>) {
  ^bb0(%in: i32, %out: i32):
    %6 = arith.minui %in, %out : i32
    linalg.yield %6 : i32
  } -> tensor<20xi32>
  iree_codegen.store_to_buffer %5, %1 : tensor<20xi32> into memref<20xi32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// The output starts from a loaded tensor (not a fill): the partials still start from the
// identity, and the one lane that stores an output combines it with the loaded value once.
// CHECK-LABEL: func.func @sum_into_init
// CHECK:         %[[INIT:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<24xf32
// CHECK:         arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK:         gpu.barrier
// CHECK:         scf.if
// CHECK-NEXT:      %[[ROW:.+]] = arith.addi
// CHECK-NEXT:      %[[OLD:.+]] = memref.load %[[INIT]][%[[ROW]]] : memref<24xf32
// CHECK-NEXT:      %[[NEW:.+]] = arith.addf %{{.+}}, %[[OLD]] : f32
// CHECK-NEXT:      memref.store %[[NEW]], %{{.+}}[%[[ROW]]] : memref<24xf32
func.func @sum_into_init() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<24x640xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<24xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<24xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<24x640xf32, #hal.descriptor_type<storage_buffer>> -> tensor<24x640xf32>
  %4 = iree_codegen.load_from_buffer %1 : memref<24xf32, #hal.descriptor_type<storage_buffer>> -> tensor<24xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%3 : tensor<24x640xf32>) outs(%4 : tensor<24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<24xf32>
  iree_codegen.store_to_buffer %5, %2 : tensor<24xf32> into memref<24xf32, #hal.descriptor_type<storage_buffer>>
  return
}
