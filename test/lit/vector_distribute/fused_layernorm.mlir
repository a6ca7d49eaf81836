// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{workgroup-size=256}, canonicalize, cse)' | filecheck %s

// The normalizing dispatch IREE 3.13 forms on Vulkan from LayerNorm as generics (16x1000, f16
// in and out, f32 statistics): the mean comes in as a loaded row tensor; the dispatch sums
// (extf(x) - mean)^2 and writes truncf((x - mean) * rsqrt(sumsq / 1000 + eps) * gamma + beta),
// gamma and beta f16 column operands. x - mean is computed once, for both sweeps.
// CHECK-LABEL: func.func @layernorm_normalize
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// The reason its first matcher gave (one op, not fused rows) is not left on what it lowered:
// CHECK-NOT:     ["ldsopt-vector-distribute", "
// CHECK-SAME:    lds_partials = array<i64: 32, 1>, {{.*}} passes = 2 : i64, {{.*}} row = "registers"
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<16x1000xf16
// CHECK:         %[[MEAN:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<16xf32
// CHECK:         %[[G:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<1000xf16
// CHECK:         %[[B:.+]] = hal.interface.binding.subspan {{.*}} binding(3) {{.*}} : memref<1000xf16
// CHECK:         %[[Y:.+]] = hal.interface.binding.subspan {{.*}} binding(4) {{.*}} : memref<16x1000xf16
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 256
// CHECK:         %[[LANE:.+]] = arith.remui %[[TID]], %c8
// CHECK:         %[[SG:.+]] = arith.divui %[[TID]], %c8
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<32x1xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %c16 step %c16 {
// CHECK:           %[[M:.+]] = memref.load %[[MEAN]][%[[ROW]]]
// CHECK:           %[[OWNS:.+]] = arith.cmpi ult, %[[TID]], %c250
// CHECK:           %[[COL:.+]] = arith.muli %{{.+}}, %c4
// CHECK:           %[[V:.+]] = vector.transfer_read %[[X]][%[[ROW]], %[[COL]]]{{.*}} vector<4xf16>
// CHECK:           %[[GV:.+]] = vector.transfer_read %[[G]][%[[COL]]]{{.*}} vector<4xf16>
// CHECK:           %[[BV:.+]] = vector.transfer_read %[[B]][%[[COL]]]{{.*}} vector<4xf16>
// CHECK:           %[[MV:.+]] = vector.broadcast %[[M]] : f32 to vector<4xf32>
// CHECK:           %[[X32:.+]] = arith.extf %[[V]] : vector<4xf16> to vector<4xf32>
// CHECK:           %[[D:.+]] = arith.subf %[[X32]], %[[MV]] : vector<4xf32>
// CHECK:           %[[D2:.+]] = arith.mulf %[[D]], %[[D]] : vector<4xf32>
// CHECK:           arith.addf %[[D2]], %{{.+}} : vector<4xf32>
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
// CHECK:           scf.if %[[OWNS]] {
// CHECK:             %[[R:.+]] = math.rsqrt %{{.+}} : vector<4xf32>
// CHECK:             %[[G32:.+]] = arith.extf %[[GV]] : vector<4xf16> to vector<4xf32>
// CHECK:             %[[B32:.+]] = arith.extf %[[BV]] : vector<4xf16> to vector<4xf32>
// CHECK:             %[[N:.+]] = arith.mulf %[[D]], %[[R]] : vector<4xf32>
// CHECK:             %[[S:.+]] = arith.mulf %[[N]], %[[G32]] : vector<4xf32>
// CHECK:             %[[O:.+]] = arith.addf %[[S]], %[[B32]] : vector<4xf32>
// CHECK:             %[[O16:.+]] = arith.truncf %[[O]] : vector<4xf32> to vector<4xf16>
// CHECK:             vector.transfer_write %[[O16]], %[[Y]][%[[ROW]], %[[COL]]]
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @layernorm_normalize() {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 1.000000e+03 : f32
  %cst_1 = arith.constant 9.99999974E-6 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf16>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1000xf16>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1000xf16>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x1000xf16>>
  %5 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf16>> -> tensor<16x1000xf16>
  %6 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [16], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16xf32>> -> tensor<16xf32>
  %7 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [1000], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1000xf16>> -> tensor<1000xf16>
  %8 = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0], sizes = [1000], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1000xf16>> -> tensor<1000xf16>
  %9 = tensor.empty() : tensor<16x1000xf16>
  %10 = tensor.empty() : tensor<16xf32>
  %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<16xf32>) -> tensor<16xf32>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%5, %6 : tensor<16x1000xf16>, tensor<16xf32>) outs(%11 : tensor<16xf32>) {
  ^bb0(%in: f16, %in_2: f32, %out: f32):
    %14 = arith.extf %in : f16 to f32
    %15 = arith.subf %14, %in_2 : f32
    %16 = arith.mulf %15, %15 : f32
    %17 = arith.addf %16, %out : f32
    linalg.yield %17 : f32
  } -> tensor<16xf32>
  %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%5, %6, %12, %7, %8 : tensor<16x1000xf16>, tensor<16xf32>, tensor<16xf32>, tensor<1000xf16>, tensor<1000xf16>) outs(%9 : tensor<16x1000xf16>) {
  ^bb0(%in: f16, %in_2: f32, %in_3: f32, %in_4: f16, %in_5: f16, %out: f16):
    %14 = arith.divf %in_3, %cst_0 : f32
    %15 = arith.addf %14, %cst_1 : f32
    %16 = math.rsqrt %15 : f32
    %17 = arith.extf %in : f16 to f32
    %18 = arith.extf %in_4 : f16 to f32
    %19 = arith.extf %in_5 : f16 to f32
    %20 = arith.subf %17, %in_2 : f32
    %21 = arith.mulf %20, %16 : f32
    %22 = arith.mulf %21, %18 : f32
    %23 = arith.addf %22, %19 : f32
    %24 = arith.truncf %23 : f32 to f16
    linalg.yield %24 : f16
  } -> tensor<16x1000xf16>
  iree_tensor_ext.dispatch.tensor.store %13, %4, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : tensor<16x1000xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x1000xf16>>
  return
}
