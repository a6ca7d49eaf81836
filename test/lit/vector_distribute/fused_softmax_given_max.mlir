// RUN: lds-opt %s --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{workgroup-size=256}, canonicalize, cse)' | filecheck %s

#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// The second dispatch IREE 3.13 forms from softmax written as generics on f16 with f32
// statistics (8x300): the row max comes in as a loaded row tensor, the dispatch sums
// exp(extf(x) - max) and writes truncf(exp(extf(x) - max) / sum). Here in the memref spelling of
// CUDA / HIP. Vectors of 4 f16 (75 a row), 128 threads: one vector each, thread 75 and up
// clamped and masked; the max loaded once per row and broadcast; the sum through shuffles and
// a 16-partial LDS buffer, read back by every thread; the exp kept for the divide.
// CHECK-LABEL: func.func @sum_exp_divide
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    lds_partials = array<i64: 16, 1>, {{.*}} passes = 2 : i64, {{.*}} reduction = array<i64: 16, 1, 8, 4>, row = "registers"
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 128
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<16x1xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %c8 step %c8 {
// CHECK:           %[[MAX:.+]] = memref.load %{{.+}}[%[[ROW]]] : memref<8xf32, #hal.descriptor_type<storage_buffer>>
// CHECK:           %[[OWNS:.+]] = arith.cmpi ult, %[[TID]], %c75
// CHECK:           %[[V:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %{{.+}}], {{.*}} : memref<8x300xf16, {{.*}}>, vector<4xf16>
// CHECK:           %[[MAXV:.+]] = vector.broadcast %[[MAX]] : f32 to vector<4xf32>
// CHECK:           %[[X32:.+]] = arith.extf %[[V]] : vector<4xf16> to vector<4xf32>
// CHECK:           %[[D:.+]] = arith.subf %[[X32]], %[[MAXV]] : vector<4xf32>
// CHECK:           %[[E:.+]] = math.exp %[[D]] : vector<4xf32>
// CHECK:           arith.addf %[[E]], %{{.+}} : vector<4xf32>
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           scf.if
// CHECK-NEXT:        memref.store %{{.+}}, %[[LDS]]
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK:           scf.for
// CHECK:             memref.load %[[LDS]]
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           %[[TOTAL:.+]] = arith.addf
// CHECK:           %[[SUM:.+]] = arith.addf %[[TOTAL]], %{{.+}} : f32
// CHECK:           %[[RECIP:.+]] = arith.divf %{{.+}}, %[[SUM]] : f32
// CHECK:           scf.if %[[OWNS]] {
// CHECK-NEXT:        %[[RECIPV:.+]] = vector.broadcast %[[RECIP]] : f32 to vector<4xf32>
// CHECK-NEXT:        %[[Q:.+]] = arith.mulf %[[E]], %[[RECIPV]] : vector<4xf32>
// CHECK-NEXT:        %[[Y:.+]] = arith.truncf %[[Q]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:        vector.transfer_write %[[Y]], %{{.+}}[%[[ROW]], %{{.+}}] {{.*}} : vector<4xf16>, memref<8x300xf16
func.func @sum_exp_divide() {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x300xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<8x300xf16, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<8x300xf16, #hal.descriptor_type<storage_buffer>> -> tensor<8x300xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8xf32>
  %5 = tensor.empty() : tensor<8x300xf16>
  %6 = tensor.empty() : tensor<8xf32>
  %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<8xf32>) -> tensor<8xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%3, %4 : tensor<8x300xf16>, tensor<8xf32>) outs(%7 : tensor<8xf32>) {
  ^bb0(%in: f16, %in_0: f32, %out: f32):
    %10 = arith.extf %in : f16 to f32
    %11 = arith.subf %10, %in_0 : f32
    %12 = math.exp %11 : f32
    %13 = arith.addf %12, %out : f32
    linalg.yield %13 : f32
  } -> tensor<8xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3, %4, %8 : tensor<8x300xf16>, tensor<8xf32>, tensor<8xf32>) outs(%5 : tensor<8x300xf16>) {
  ^bb0(%in: f16, %in_0: f32, %in_1: f32, %out: f16):
    %10 = arith.extf %in : f16 to f32
    %11 = arith.subf %10, %in_0 : f32
    %12 = math.exp %11 : f32
    %13 = arith.divf %12, %in_1 : f32
    %14 = arith.truncf %13 : f32 to f16
    linalg.yield %14 : f16
  } -> tensor<8x300xf16>
  iree_codegen.store_to_buffer %9, %2 : tensor<8x300xf16> into memref<8x300xf16, #hal.descriptor_type<storage_buffer>>
  return
}
