// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{workgroup-size=256}, canonicalize, cse)' | filecheck %s

// argmax as torch-mlir writes it (value and i64 index in one generic: maximumf, and select on
// cmpf ogt of linalg.index), of 2x over rows of 1000 f32, as IREE 3.13 configures it for Vulkan.
// Three passes over the row kept in registers, each an i32 or f32 reduction through shuffles
// and its own LDS buffer: the first NaN's index (minsi over NaN lanes' indices, INT32_MAX if
// none), the max before it, the first index before it holding the max. The value is NaN if a
// NaN came, else the max (combined with the fill, -inf, folded away); the index is the
// first one's where the max beats the fill (cmpf ogt, as the body), else the fill's (0).
// CHECK-LABEL: func.func @argmax
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    lds_partials = array<i64: 32, 1>, {{.*}} passes = 3 : i64, {{.*}} row = "registers"
// CHECK-DAG:     %[[NONE:.+]] = arith.constant 2147483647 : i32
// CHECK-DAG:     %[[NONES:.+]] = arith.constant dense<2147483647> : vector<4xi32>
// CHECK-DAG:     %[[STEPS:.+]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
// CHECK-DAG:     %[[NAN:.+]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:     %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[VALUES:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<16xf32
// CHECK:         %[[INDICES:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<16xi64
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 256
// CHECK:         %[[LANE:.+]] = arith.remui %[[TID]], %c8
// CHECK:         %[[SG:.+]] = arith.divui %[[TID]], %c8
// CHECK:         %[[LDS_NAN:.+]] = memref.alloc() alignment = 16 : memref<32x1xi32, #gpu.address_space<workgroup>>
// CHECK:         %[[LDS_MAX:.+]] = memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[LDS_IDX:.+]] = memref.alloc() alignment = 16 : memref<32x1xi32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[ROW:.+]] =
// CHECK:           %[[COL:.+]] = arith.muli %{{.+}}, %c4
// CHECK:           %[[X:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %[[COL]]]
// CHECK:           %[[C:.+]] = arith.addf %[[X]], %[[X]] : vector<4xf32>
// CHECK:           %[[COL32:.+]] = arith.index_cast %[[COL]] : index to i32
// CHECK:           %[[COLV:.+]] = vector.broadcast %[[COL32]] : i32 to vector<4xi32>
// CHECK:           %[[IDX:.+]] = arith.addi %[[COLV]], %[[STEPS]] : vector<4xi32>
// CHECK:           %[[ISNAN:.+]] = arith.cmpf uno, %[[C]], %[[C]] : vector<4xf32>
// CHECK:           arith.select %[[ISNAN]], %[[IDX]], %[[NONES]]
// CHECK:           arith.minsi
// CHECK:           gpu.shuffle xor
// CHECK:           memref.store %{{.+}}, %[[LDS_NAN]][%[[SG]], %c0]
// CHECK:           gpu.barrier
// CHECK:           memref.load %[[LDS_NAN]]
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[FIRST_NAN:.+]] = arith.minsi
// CHECK:           %[[FNV:.+]] = vector.broadcast %[[FIRST_NAN]] : i32 to vector<4xi32>
// CHECK:           %[[BEFORE:.+]] = arith.cmpi slt, %[[IDX]], %[[FNV]] : vector<4xi32>
// CHECK:           arith.select %[[BEFORE]], %[[C]], %{{.+}} : vector<4xi1>, vector<4xf32>
// CHECK:           arith.maximumf
// CHECK:           memref.store %{{.+}}, %[[LDS_MAX]][%[[SG]], %c0]
// CHECK:           gpu.barrier
// CHECK:           memref.load %[[LDS_MAX]]
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[MAX:.+]] = arith.maximumf
// CHECK:           %[[MAXV:.+]] = vector.broadcast %[[MAX]] : f32 to vector<4xf32>
// CHECK:           %[[EQ:.+]] = arith.cmpf oeq, %[[C]], %[[MAXV]] : vector<4xf32>
// CHECK:           %[[HOLDS:.+]] = arith.andi %[[BEFORE]], %[[EQ]] : vector<4xi1>
// CHECK:           arith.select %[[HOLDS]], %[[IDX]], %[[NONES]]
// CHECK:           memref.store %{{.+}}, %[[LDS_IDX]][%[[SG]], %c0]
// CHECK:           gpu.barrier
// CHECK:           memref.load %[[LDS_IDX]]
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[FIRST:.+]] = arith.minsi
// CHECK:           %[[HAS_NAN:.+]] = arith.cmpi ne, %[[FIRST_NAN]], %[[NONE]] : i32
// CHECK:           %[[VALUE:.+]] = arith.select %[[HAS_NAN]], %[[NAN]], %[[MAX]] : f32
// CHECK:           %[[FIRST64:.+]] = arith.extsi %[[FIRST]] : i32 to i64
// CHECK:           %[[BEATS:.+]] = arith.cmpf ogt, %[[MAX]], %[[NINF]] : f32
// CHECK:           %[[INDEX:.+]] = arith.select %[[BEATS]], %[[FIRST64]], %{{.+}} : i64
// CHECK:           %[[T0:.+]] = arith.cmpi eq, %[[TID]], %c0
// CHECK:           scf.if %[[T0]] {
// CHECK-NEXT:        memref.store %[[VALUE]], %[[VALUES]][%[[ROW]]]
// CHECK-NEXT:        memref.store %[[INDEX]], %[[INDICES]][%[[ROW]]]
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @argmax() {
  %cst = arith.constant 0xFF800000 : f32
  %c0_i64 = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c64) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi64>>
  %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
  %4 = tensor.empty() : tensor<16xi64>
  %5 = tensor.empty() : tensor<16xf32>
  %6 = linalg.fill ins(%c0_i64 : i64) outs(%4 : tensor<16xi64>) -> tensor<16xi64>
  %7 = linalg.fill ins(%cst : f32) outs(%5 : tensor<16xf32>) -> tensor<16xf32>
  %8:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%3 : tensor<16x1000xf32>) outs(%7, %6 : tensor<16xf32>, tensor<16xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %9 = arith.addf %in, %in : f32
    %10 = linalg.index 1 : index
    %11 = arith.index_cast %10 : index to i64
    %12 = arith.maximumf %9, %out : f32
    %13 = arith.cmpf ogt, %9, %out : f32
    %14 = arith.select %13, %11, %out_0 : i64
    linalg.yield %12, %14 : f32, i64
  } -> (tensor<16xf32>, tensor<16xi64>)
  iree_tensor_ext.dispatch.tensor.store %8#0, %1, offsets = [0], sizes = [16], strides = [1] : tensor<16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  iree_tensor_ext.dispatch.tensor.store %8#1, %2, offsets = [0], sizes = [16], strides = [1] : tensor<16xi64> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi64>>
  return
}
