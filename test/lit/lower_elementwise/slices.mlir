// Inputs that are slices of one binding (a SwiGLU's gate and up, cut from one fused projection,
// [16, 128] -> two [16, 64]): each read through its subview, rows not collapsed across the gap
// between them, vectors aligned with the slices' offsets and row strides. On CUDA IREE spells
// the slices as `memref.subview`s of the binding; on Vulkan as loads at offsets, of which the
// pass builds the same subviews.
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-lower-elementwise, canonicalize, cse)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-lower-elementwise, canonicalize, cse)' | filecheck %s --check-prefix=VK

// CHECK-LABEL: func.func @swiglu_slices
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK-DAG:     %[[UP:.+]] = memref.subview %{{.+}}[0, 0, 0, 64] [1, 1, 16, 64] [1, 1, 1, 1]
// CHECK-DAG:     %[[GATE:.+]] = memref.subview %{{.+}}[0, 0, 0, 0] [1, 1, 16, 64] [1, 1, 1, 1]
// CHECK-DAG:     %[[G2:.+]] = memref.collapse_shape %[[GATE]] {{\[}}[0, 1], [2]] : {{.+}} into memref<16x64xf16, strided<[128, 1], offset: ?>, {{.+}}>
// CHECK-DAG:     %[[U2:.+]] = memref.collapse_shape %[[UP]] {{\[}}[0, 1], [2]] : {{.+}} into memref<16x64xf16, strided<[128, 1], offset: ?>, {{.+}}>
// CHECK-DAG:     %[[OUT:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : {{.+}} into memref<16x64xf16, strided<[64, 1], offset: ?>, {{.+}}>
// CHECK:         scf.for
// CHECK:           vector.transfer_read %[[G2]][%{{.+}}, %{{.+}}]{{.*}} : memref<16x64xf16, strided<[128, 1], offset: ?>, {{.+}}>, vector<8xf16>
// CHECK:           vector.transfer_read %[[U2]][%{{.+}}, %{{.+}}]{{.*}} : memref<16x64xf16, strided<[128, 1], offset: ?>, {{.+}}>, vector<8xf16>
// CHECK:           math.exp %{{.+}} : vector<8xf16>
// CHECK:           vector.transfer_write %{{.+}}, %[[OUT]][%{{.+}}, %{{.+}}] {in_bounds = [true]} : vector<8xf16>, memref<16x64xf16, strided<[64, 1], offset: ?>
func.func @swiglu_slices() {
  %c7168 = arith.constant 7168 : index
  %c3072 = arith.constant 3072 : index
  %cst = arith.constant 1.000000e+00 : f16
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c3072) flags("ReadOnly|Indirect") : memref<1x1x16x128xf16, strided<[2048, 2048, 128, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c7168) flags(Indirect) : memref<1x16x64xf16, strided<[1024, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %2 = tensor.empty() : tensor<1x16x64xf16>
  %subview = memref.subview %0[0, 0, 0, 64] [1, 1, 16, 64] [1, 1, 1, 1] : memref<1x1x16x128xf16, strided<[2048, 2048, 128, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<1x16x64xf16, strided<[2048, 128, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %subview : memref<1x16x64xf16, strided<[2048, 128, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<1x16x64xf16>
  %subview_0 = memref.subview %0[0, 0, 0, 0] [1, 1, 16, 64] [1, 1, 1, 1] : memref<1x1x16x128xf16, strided<[2048, 2048, 128, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<1x16x64xf16, strided<[2048, 128, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %subview_0 : memref<1x16x64xf16, strided<[2048, 128, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<1x16x64xf16>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %3 : tensor<1x16x64xf16>, tensor<1x16x64xf16>) outs(%2 : tensor<1x16x64xf16>) {
  ^bb0(%in: f16, %in_1: f16, %out: f16):
    %6 = arith.negf %in : f16
    %7 = math.exp %6 : f16
    %8 = arith.addf %7, %cst : f16
    %9 = arith.divf %cst, %8 : f16
    %10 = arith.mulf %in, %9 : f16
    %11 = arith.mulf %10, %in_1 : f16
    linalg.yield %11 : f16
  } -> tensor<1x16x64xf16>
  iree_codegen.store_to_buffer %5, %1 : tensor<1x16x64xf16> into memref<1x16x64xf16, strided<[1024, 64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// VK-LABEL: func.func @swiglu_loads_at_offsets
// VK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// VK-DAG:     memref.subview %{{.+}}[0, 0, 0, 64] [1, 1, 16, 64] [1, 1, 1, 1] : memref<1x1x16x128xf16, strided<[2048, 2048, 128, 1], offset: ?>, {{.+}}> to memref<1x16x64xf16, strided<[2048, 128, 1], offset: ?>, {{.+}}>
// VK-DAG:     memref.subview %{{.+}}[0, 0, 0, 0] [1, 1, 16, 64] [1, 1, 1, 1]
// VK:         scf.for
// VK:           vector.transfer_read %{{.+}} : memref<16x64xf16, strided<[128, 1], offset: ?>, {{.+}}>, vector<4xf16>
// VK:           vector.transfer_read %{{.+}} : memref<16x64xf16, strided<[128, 1], offset: ?>, {{.+}}>, vector<4xf16>
func.func @swiglu_loads_at_offsets() {
  %c7168 = arith.constant 7168 : index
  %c3072 = arith.constant 3072 : index
  %cst = arith.constant 1.000000e+00 : f16
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c3072) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x1x16x128xf16>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c7168) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x16x64xf16>>
  %2 = tensor.empty() : tensor<1x16x64xf16>
  %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0, 64], sizes = [1, 1, 16, 64], strides = [1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x1x16x128xf16>> -> tensor<1x16x64xf16>
  %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0, 0], sizes = [1, 1, 16, 64], strides = [1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x1x16x128xf16>> -> tensor<1x16x64xf16>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %3 : tensor<1x16x64xf16>, tensor<1x16x64xf16>) outs(%2 : tensor<1x16x64xf16>) {
  ^bb0(%in: f16, %in_0: f16, %out: f16):
    %6 = arith.negf %in : f16
    %7 = math.exp %6 : f16
    %8 = arith.addf %7, %cst : f16
    %9 = arith.divf %cst, %8 : f16
    %10 = arith.mulf %in, %9 : f16
    %11 = arith.mulf %10, %in_0 : f16
    linalg.yield %11 : f16
  } -> tensor<1x16x64xf16>
  iree_tensor_ext.dispatch.tensor.store %5, %1, offsets = [0, 0, 0], sizes = [1, 16, 64], strides = [1, 1, 1] : tensor<1x16x64xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x16x64xf16>>
  return
}

// -----

// GPT-J's rotary half: every second element of each row (`x[..., 1::2]` of the first 8 of 16),
// negated. The slice is read through a subview of steps [1, 1, 1, 2]; a step along the fastest
// dim leaves no two of its elements adjacent, so the kernel is scalar (V = 1), and the rows are
// not collapsed into each other (each is 4 elements 32 bytes apart, the next 64 bytes on).
// VK-LABEL: func.func @rotary_odd_lanes
// VK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// VK:         %[[ODD:.+]] = memref.subview %{{.+}}[0, 0, 0, 1] [1, 9, 2, 4] [1, 1, 1, 2] : memref<1x9x2x16xf32, {{.+}}> to memref<9x2x4xf32, strided<[32, 16, 2], offset: ?>, {{.+}}>
// VK:         %[[ROWS:.+]] = memref.collapse_shape %[[ODD]] {{\[}}[0, 1], [2]] : {{.+}} into memref<18x4xf32, strided<[16, 2], offset: ?>, {{.+}}>
// VK:         scf.for
// VK:           %[[X:.+]] = vector.transfer_read %[[ROWS]]{{.+}} : memref<18x4xf32, strided<[16, 2], offset: ?>, {{.+}}>, vector<1xf32>
// VK:           arith.negf %[[X]] : vector<1xf32>
func.func @rotary_odd_lanes() {
  %c13824 = arith.constant 13824 : index
  %0 = hal.interface.constant.load layout(<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %2 = util.assume.int %1[<umin = 10368, umax = 10368, udiv = 10368>, <umin = 1152, umax = 1152, udiv = 1152>] : index
  %3 = hal.interface.binding.subspan layout(<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%2) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x9x2x16xf32>>
  %4 = hal.interface.binding.subspan layout(<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c13824) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<9x2x4xf32>>
  %5 = tensor.empty() : tensor<9x2x4xf32>
  %6 = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0, 0, 0, 1], sizes = [1, 9, 2, 4], strides = [1, 1, 1, 2] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x9x2x16xf32>> -> tensor<9x2x4xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<9x2x4xf32>) outs(%5 : tensor<9x2x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %8 = arith.negf %in : f32
    linalg.yield %8 : f32
  } -> tensor<9x2x4xf32>
  iree_tensor_ext.dispatch.tensor.store %7, %4, offsets = [0, 0, 0], sizes = [9, 2, 4], strides = [1, 1, 1] : tensor<9x2x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<9x2x4xf32>>
  return
}

// -----

// Every second row of a [8, 64] f16 tensor, plus one: the step is along the rows, so each row
// is still contiguous and read in vectors of 8 (16 bytes), the rows not collapsed.
// CHECK-LABEL: func.func @every_second_row
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK:         %[[ROWS:.+]] = memref.subview %{{.+}}[1, 0] [4, 64] [2, 1] : memref<8x64xf16, {{.+}}> to memref<4x64xf16, strided<[128, 1], offset: 64>, {{.+}}>
// CHECK:         scf.for
// CHECK:           vector.transfer_read %[[ROWS]]{{.+}} : memref<4x64xf16, strided<[128, 1], offset: 64>, {{.+}}>, vector<8xf16>
func.func @every_second_row() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.000000e+00 : f16
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<4x64xf16, #hal.descriptor_type<storage_buffer>>
  %subview = memref.subview %0[1, 0] [4, 64] [2, 1] : memref<8x64xf16, #hal.descriptor_type<storage_buffer>> to memref<4x64xf16, strided<[128, 1], offset: 64>, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %subview : memref<4x64xf16, strided<[128, 1], offset: 64>, #hal.descriptor_type<storage_buffer>> -> tensor<4x64xf16>
  %3 = tensor.empty() : tensor<4x64xf16>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<4x64xf16>) outs(%3 : tensor<4x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %5 = arith.addf %in, %cst : f16
    linalg.yield %5 : f16
  } -> tensor<4x64xf16>
  iree_codegen.store_to_buffer %4, %1 : tensor<4x64xf16> into memref<4x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}
