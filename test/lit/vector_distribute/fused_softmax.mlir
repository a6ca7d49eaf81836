// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{workgroup-size=256}, canonicalize, cse)' | filecheck %s
// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{row-registers=0}, canonicalize, cse)' | filecheck %s --check-prefix=LDS
// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{row-registers=0 row-lds=false}, canonicalize, cse)' | filecheck %s --check-prefix=GLOBAL
// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute, canonicalize, cse)' | filecheck %s --check-prefix=PLAN
// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{workgroup-size=256 row-reciprocal=false}, canonicalize, cse)' | filecheck %s --check-prefix=DIV

// The softmax dispatch IREE 3.13 forms from `linalg.softmax` (dimension 1, 16x1000 f32), as
// configured for Vulkan: the max, the sum of exp(x - max) and the divide over the same rows.
// One kernel (workgroup-size=256): a row per workgroup (256 threads, 32 subgroups of 8, 250 vectors of 4: one
// each, thread 250 and up clamped to the last vector and masked), the row loaded once and
// kept in registers; the max through shuffles and an LDS buffer of 32 partials, every thread
// reading them all back; then exp(x - max) of the registers summed the same way through a
// second buffer, then combined with the fill value (0); exp(x - max) / sum written by the threads that own a vector.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    lds_partials = array<i64: 32, 1>, {{.*}} passes = 3 : i64, {{.*}} reduction = array<i64: 32, 1, 8, 4>, row = "registers"
// CHECK-DAG:     %[[NINF:.+]] = arith.constant dense<0xFF800000> : vector<4xf32>
// CHECK-DAG:     %[[ZEROS:.+]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<16x1000xf32, #hal.descriptor_type<storage_buffer>>
// CHECK:         %[[Y:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<16x1000xf32, #hal.descriptor_type<storage_buffer>>
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 256
// CHECK:         %[[LANE:.+]] = arith.remui %[[TID]], %c8
// CHECK:         %[[SG:.+]] = arith.divui %[[TID]], %c8
// CHECK:         %[[LDS_MAX:.+]] = memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[LDS_SUM:.+]] = memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %c16 step %c16 {
// CHECK:           %[[OWNS:.+]] = arith.cmpi ult, %[[TID]], %c250
// CHECK:           %[[CH:.+]] = arith.minui %[[TID]], %c249
// CHECK:           %[[COL:.+]] = arith.muli %[[CH]], %c4
// CHECK:           %[[V:.+]] = vector.transfer_read %[[X]][%[[ROW]], %[[COL]]]
// CHECK-NOT:       vector.transfer_read
// CHECK:           %[[M0:.+]] = arith.maxnumf %[[V]], %[[NINF]] : vector<4xf32>
// CHECK:           %[[MASK:.+]] = vector.broadcast %[[OWNS]] : i1 to vector<4xi1>
// CHECK:           arith.select %[[MASK]], %[[M0]], %[[NINF]]
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[PART_MAX:.+]] = arith.maxnumf
// CHECK:           %[[FIRST:.+]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK:           scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store %[[PART_MAX]], %[[LDS_MAX]][%[[SG]], %c0]
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK:           scf.for %[[K:.+]] = %[[LANE]] to %c32 step %c8
// CHECK:             memref.load %[[LDS_MAX]][%[[K]], %c0]
// CHECK:             arith.maxnumf
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[MAX:.+]] = arith.maxnumf
// CHECK:           %[[MAXV:.+]] = vector.broadcast %[[MAX]] : f32 to vector<4xf32>
// CHECK:           %[[D:.+]] = arith.subf %[[V]], %[[MAXV]] : vector<4xf32>
// CHECK:           %[[E:.+]] = math.exp %[[D]] : vector<4xf32>
// CHECK:           %[[S0:.+]] = arith.addf %[[E]], %[[ZEROS]] : vector<4xf32>
// CHECK:           arith.select %[[MASK]], %[[S0]], %[[ZEROS]]
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[PART_SUM:.+]] = arith.addf
// CHECK:           scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store %[[PART_SUM]], %[[LDS_SUM]][%[[SG]], %c0]
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK:           scf.for %[[K2:.+]] = %[[LANE]] to %c32 step %c8
// CHECK:             memref.load %[[LDS_SUM]][%[[K2]], %c0]
// CHECK:             arith.addf
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[TOTAL:.+]] = arith.addf
// CHECK:           %[[SUM:.+]] = arith.addf %[[TOTAL]], %[[ZERO]] : f32
// CHECK:           %[[RECIP:.+]] = arith.divf %[[ONE]], %[[SUM]] : f32
// CHECK:           scf.if %[[OWNS]] {
// CHECK-NEXT:        %[[RECIPV:.+]] = vector.broadcast %[[RECIP]] : f32 to vector<4xf32>
// CHECK-NEXT:        %[[OUT:.+]] = arith.mulf %[[E]], %[[RECIPV]] : vector<4xf32>
// CHECK-NEXT:        vector.transfer_write %[[OUT]], %[[Y]][%[[ROW]], %[[COL]]]
// CHECK-NOT:       gpu.barrier
// CHECK:         return

// The default plan of a row kept in registers: subgroups halved until each thread holds 4
// chunks (the target's compute units unknown): 64 threads, 8 subgroups of 8, 4 vectors of 4.
// PLAN-LABEL: func.func @softmax
// PLAN-SAME:    lds_partials = array<i64: 8, 1>, {{.*}} reduction = array<i64: 8, 4, 8, 4>, row = "registers"
// PLAN:         gpu.thread_id x upper_bound 64

// row-reciprocal=false: the division per element, as the program writes it.
// DIV-LABEL: func.func @softmax
// DIV:         arith.divf %{{.+}}, %{{.+}} : vector<4xf32>

// Not in registers: the row kept in LDS (4000 bytes) between sweeps. The first sweep's loop
// loads x and writes each vector at its place in the row (every chunk read exists: no guard);
// the other two sweeps read the row from there.
// LDS-LABEL: func.func @softmax
// LDS-SAME:    passes = 3 : i64, {{.*}} row = "lds"
// LDS:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// LDS:         %[[ROW_LDS:.+]] = memref.alloc() alignment = 16 : memref<1000xf32, #gpu.address_space<workgroup>>
// LDS:         scf.for %[[ROW:.+]] =
// LDS:           scf.for %[[CH:.+]] = %{{.+}} to %c250 step %c256
// LDS:             %[[COL:.+]] = arith.muli %[[CH]], %c4
// LDS-NEXT:        %[[V:.+]] = vector.transfer_read %[[X]][%[[ROW]], %[[COL]]]
// LDS-NEXT:        vector.transfer_write %[[V]], %[[ROW_LDS]][%[[COL]]]
// LDS:           gpu.barrier
// LDS:           scf.for %[[CH2:.+]] = %{{.+}} to %c250 step %c256
// LDS:             %[[COL2:.+]] = arith.muli %[[CH2]], %c4
// LDS-NEXT:        vector.transfer_read %[[ROW_LDS]][%[[COL2]]]
// LDS:           gpu.barrier
// LDS:           scf.for %[[CH3:.+]] = %{{.+}} to %c250 step %c256
// LDS:             %[[COL3:.+]] = arith.muli %[[CH3]], %c4
// LDS-NEXT:        vector.transfer_read %[[ROW_LDS]][%[[COL3]]]
// LDS-NOT:       vector.transfer_read %[[X]]

// Read again from global memory each sweep (row-lds=false): three loops over the thread's
// chunks, each loading x.
// GLOBAL-LABEL: func.func @softmax
// GLOBAL-SAME:    passes = 3 : i64, {{.*}} row = "global"
// GLOBAL-COUNT-3: vector.transfer_read
// GLOBAL-NOT:     vector.transfer_read
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @softmax() {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFFC00000 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x1000xf32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
  %3 = tensor.empty() : tensor<16x1000xf32>
  %4 = tensor.empty() : tensor<16xf32>
  %5 = linalg.fill ins(%cst_0 : f32) outs(%4 : tensor<16xf32>) -> tensor<16xf32>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x1000xf32>) outs(%5 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %10 = arith.maxnumf %in, %out : f32
    linalg.yield %10 : f32
  } -> tensor<16xf32>
  %7 = linalg.fill ins(%cst : f32) outs(%4 : tensor<16xf32>) -> tensor<16xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2, %6 : tensor<16x1000xf32>, tensor<16xf32>) outs(%7 : tensor<16xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %10 = arith.subf %in, %in_1 : f32
    %11 = math.exp %10 : f32
    %12 = arith.addf %11, %out : f32
    linalg.yield %12 : f32
  } -> tensor<16xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2, %6, %8 : tensor<16x1000xf32>, tensor<16xf32>, tensor<16xf32>) outs(%3 : tensor<16x1000xf32>) {
  ^bb0(%in: f32, %in_1: f32, %in_2: f32, %out: f32):
    %10 = arith.subf %in, %in_1 : f32
    %11 = math.exp %10 : f32
    %12 = arith.divf %11, %in_2 : f32
    linalg.yield %12 : f32
  } -> tensor<16x1000xf32>
  iree_tensor_ext.dispatch.tensor.store %9, %1, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : tensor<16x1000xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x1000xf32>>
  return
}
