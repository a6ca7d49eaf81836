// RUN: lds-opt %s --split-input-file --target=cuda \
// RUN:   --pass-pipeline='builtin.module(ldsopt-dtl-layout, ldsopt-matmul-lds)' | filecheck %s --check-prefix=CUDA
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds)' \
// RUN:   | filecheck %s
// RUN: lds-opt %s --split-input-file --target=gfx942 \
// RUN:   --pass-pipeline='builtin.module(ldsopt-inthread-transpose, ldsopt-matmul-lds)' | filecheck %s --check-prefix=GFX

// The ResNet projection shortcut as IREE forms it (NCHW f16, 1x1 stride 2, 8x64x56x56 image, 512
// filters, f32 sums rounded to f16): the image is a strided subview [::2, ::2] loaded whole,
// read as B [K = channels, N = (oh, ow)] in its binding at (2 oh, 2 ow). Its output columns
// are every 2nd element of a row: B is staged N-contiguous, a vector of 4 columns (CUDA) read
// as one aligned 16-byte load of 8 elements of the row, of which a shuffle keeps the even ones;
// ldsopt-dtl-layout leaves it to that register staging (a copy cannot drop elements) and copies
// the filters. On lavapipe (4-element vectors) a vector of 2 columns is read 4 wide.
// CUDA-LABEL: func.func @projection_shortcut
// CUDA-SAME:    ldsopt.dtl = {A = "direct {{.+}}", B = "left alone: its run lies 2 elements apart along a row
// CUDA:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CUDA:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}}operand = "B"{{.*}}vector = 4 : i64}
// CUDA:         %[[OW:.+]] = arith.remui %{{.+}}, %c28 : index
// CUDA:         %[[OH:.+]] = arith.divui %{{.+}}, %c28 : index
// CUDA:         %[[H:.+]] = arith.muli %[[OH]], %c2 : index
// CUDA:         %[[W:.+]] = arith.muli %[[OW]], %c2 : index
// CUDA:         %[[ROW:.+]] = vector.load %[[X]][%{{.+}}, %{{.+}}, %[[H]], %[[W]]] alignment = 16 : memref<8x64x56x56xf16, {{.*}}>, vector<8xf16>
// CUDA-NEXT:    vector.shuffle %[[ROW]], %{{.+}} [0, 2, 4, 6] : vector<8xf16>, vector<8xf16>
// CUDA-NOT:     vector.transfer_read %[[X]]
// On gfx942 ldsopt-inthread-transpose rakes those vectors down K (4 rows, each a vector of 2
// columns read 4 wide) and transposes them in registers, so that B lands K-contiguous for the
// MFMA fragments' wide reads.
// GFX-LABEL: func.func @projection_shortcut
// GFX-SAME:    ldsopt.lowered_by = ["ldsopt-inthread-transpose", "ldsopt-matmul-lds"]
// GFX:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}}lds_order = [0, 1], {{.*}}operand = "B", {{.*}}rake = 4 : i64, {{.*}}register_transpose = true{{.*}}vector = 2 : i64}
// GFX-COUNT-4: vector.shuffle %{{.+}}, %{{.+}} [0, 2] : vector<4xf16>, vector<4xf16>
// GFX:         vector.transpose
// CHECK-LABEL: func.func @projection_shortcut
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}}operand = "B"{{.*}}vector = 2 : i64}
// CHECK:         %[[ROW:.+]] = vector.transfer_read %[[X]]{{.*}} : memref<8x64x56x56xf16, {{.*}}>, vector<4xf16>
// CHECK-NEXT:    vector.shuffle %[[ROW]], %{{.+}} [0, 2] : vector<4xf16>, vector<4xf16>
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @projection_shortcut() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x64x56x56xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<512x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<8x512x28x28xf16, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %1 : memref<512x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<512x64xf16>
  %4 = tensor.empty() : tensor<8x512x28x28xf16>
  %5 = tensor.empty() : tensor<8x512x28x28xf32>
  %sv = memref.subview %0[0, 0, 0, 0] [8, 64, 28, 28] [1, 1, 2, 2] : memref<8x64x56x56xf16, #hal.descriptor_type<storage_buffer>> to memref<8x64x28x28xf16, strided<[200704, 3136, 112, 2]>, #hal.descriptor_type<storage_buffer>>
  %6 = iree_codegen.load_from_buffer %sv : memref<8x64x28x28xf16, strided<[200704, 3136, 112, 2]>, #hal.descriptor_type<storage_buffer>> -> tensor<8x64x28x28xf16>
  %7 = linalg.fill ins(%cst : f32) outs(%5 : tensor<8x512x28x28xf32>) -> tensor<8x512x28x28xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%6, %3 : tensor<8x64x28x28xf16>, tensor<512x64xf16>) outs(%7 : tensor<8x512x28x28xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %10 = arith.extf %in : f16 to f32
    %11 = arith.extf %in_0 : f16 to f32
    %12 = arith.mulf %10, %11 : f32
    %13 = arith.addf %out, %12 : f32
    linalg.yield %13 : f32
  } -> tensor<8x512x28x28xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<8x512x28x28xf32>) outs(%4 : tensor<8x512x28x28xf16>) {
  ^bb0(%in: f32, %out: f16):
    %10 = arith.truncf %in : f32 to f16
    linalg.yield %10 : f16
  } -> tensor<8x512x28x28xf16>
  iree_codegen.store_to_buffer %9, %2 : tensor<8x512x28x28xf16> into memref<8x512x28x28xf16, #hal.descriptor_type<storage_buffer>>
  return
}
