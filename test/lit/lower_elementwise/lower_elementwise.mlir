// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-lower-elementwise)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-lower-elementwise)' | filecheck %s --check-prefix=SPIRV

#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A row vector broadcast over 64 rows: no dims collapse (the vector lacks d0); rows of 128
// f32 are read 4 at a time (128-bit loads), the broadcast operand too.
// CHECK:       #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<BaseLowering> workgroup_size = [256, 1, 1] subgroup_size = 32>
// CHECK-LABEL: func.func @bcast_row
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG:     %[[C2048:.+]] = arith.constant 2048 : index
// CHECK-DAG:     %[[TID:.+]] = gpu.thread_id x upper_bound 256
// CHECK-DAG:     %[[BID:.+]] = gpu.block_id x upper_bound 8
// CHECK:         scf.for %[[G:.+]] = %{{.+}} to %[[C2048]] step %[[C2048]]
// CHECK:           %[[COL:.+]] = arith.remui %[[G]], %[[C32]]
// CHECK:           %[[OFF:.+]] = arith.muli %[[COL]], %c4
// CHECK:           %[[ROW:.+]] = arith.divui %[[G]], %[[C32]]
// CHECK:           %[[A:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %[[OFF]]]{{.*}} : memref<64x128xf32, {{.*}}>, vector<4xf32>
// CHECK:           %[[B:.+]] = vector.transfer_read %{{.+}}[%[[OFF]]]{{.*}} : memref<128xf32, {{.*}}>, vector<4xf32>
// CHECK:           %[[S:.+]] = arith.addf %[[A]], %[[B]] : vector<4xf32>
// CHECK:           vector.transfer_write %[[S]], %{{.+}}[%[[ROW]], %[[OFF]]]
// CHECK:       iree_codegen.dispatch_config @bcast_row
// CHECK:         %[[N:.+]] = arith.constant 8 : index
// CHECK:         iree_codegen.yield %[[N]], %{{.+}}, %{{.+}}
// CHECK-NOT:   workgroup_count_from_slice
func.func @bcast_row() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x128xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x128xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<64x128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x128xf32>
  %4 = iree_codegen.load_from_buffer %1 : memref<128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<128xf32>
  %5 = tensor.empty() : tensor<64x128xf32>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3, %4 : tensor<64x128xf32>, tensor<128xf32>) outs(%5 : tensor<64x128xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %7 = arith.addf %in, %in_0 : f32
    linalg.yield %7 : f32
  } -> tensor<64x128xf32>
  iree_codegen.store_to_buffer %6, %2 : tensor<64x128xf32> into memref<64x128xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @bcast_row {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// Same-shape operands collapse to one dim; f16 reads 8 lanes (128 bits) on CUDA but only
// 4 on SPIR-V (no vectors over 4 elements). The scalar constant in the body is broadcast.
// CHECK-LABEL: func.func @collapse_f16
// CHECK:         memref.collapse_shape %{{.+}} {{\[}}[0, 1, 2]] : memref<4x6x10xf16, {{.*}}> into memref<240xf16, {{.*}}>
// CHECK:         scf.for
// CHECK:           %[[X:.+]] = vector.transfer_read {{.*}} : memref<240xf16, {{.*}}>, vector<8xf16>
// CHECK:           %[[K:.+]] = vector.broadcast %{{.+}} : f16 to vector<8xf16>
// CHECK:           %[[M:.+]] = arith.mulf %[[X]], %[[K]] : vector<8xf16>
// CHECK:           math.exp %[[M]] : vector<8xf16>
// SPIRV:       #iree_gpu.spirv_pipeline<BaseLowering> workgroup_size = [256, 1, 1] subgroup_size = 8
// SPIRV-LABEL: func.func @collapse_f16
// SPIRV:         vector.transfer_read {{.*}} vector<4xf16>
func.func @collapse_f16() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x6x10xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<4x6x10xf16, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<4x6x10xf16, #hal.descriptor_type<storage_buffer>> -> tensor<4x6x10xf16>
  %3 = tensor.empty() : tensor<4x6x10xf16>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<4x6x10xf16>) outs(%3 : tensor<4x6x10xf16>) {
  ^bb0(%in: f16, %out: f16):
    %k = arith.constant 2.0 : f16
    %5 = arith.mulf %in, %k : f16
    %6 = math.exp %5 : f16
    linalg.yield %6 : f16
  } -> tensor<4x6x10xf16>
  iree_codegen.store_to_buffer %4, %1 : tensor<4x6x10xf16> into memref<4x6x10xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A column vector broadcast along the innermost dim: it is loaded as a scalar and
// broadcast; rows of 37 (odd) allow only 1-element vectors.
// CHECK-LABEL: func.func @bcast_col_odd
// CHECK:         scf.for
// CHECK:           %[[A:.+]] = vector.transfer_read {{.*}} : memref<5x37xf32, {{.*}}>, vector<1xf32>
// CHECK:           %[[S:.+]] = memref.load %{{.+}}[%{{.+}}] : memref<5xf32, {{.*}}>
// CHECK:           %[[B:.+]] = vector.broadcast %[[S]] : f32 to vector<1xf32>
// CHECK:           arith.maximumf %[[A]], %[[B]] : vector<1xf32>
func.func @bcast_col_odd() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<5x37xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<5xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<5x37xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<5x37xf32, #hal.descriptor_type<storage_buffer>> -> tensor<5x37xf32>
  %4 = iree_codegen.load_from_buffer %1 : memref<5xf32, #hal.descriptor_type<storage_buffer>> -> tensor<5xf32>
  %5 = tensor.empty() : tensor<5x37xf32>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3, %4 : tensor<5x37xf32>, tensor<5xf32>) outs(%5 : tensor<5x37xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %7 = arith.maximumf %in, %in_0 : f32
    linalg.yield %7 : f32
  } -> tensor<5x37xf32>
  iree_codegen.store_to_buffer %6, %2 : tensor<5x37xf32> into memref<5x37xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// Left alone: a transposed input (preload_transposed's case) and a reduction.
// CHECK-LABEL: func.func @transposed_left_alone
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic
func.func @transposed_left_alone() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x16xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x8xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<8x16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8x16xf32>
  %3 = tensor.empty() : tensor<16x8xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<8x16xf32>) outs(%3 : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x8xf32>
  iree_codegen.store_to_buffer %4, %1 : tensor<16x8xf32> into memref<16x8xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// CHECK-LABEL: func.func @reduction_left_alone
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic
func.func @reduction_left_alone() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x16xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<8xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<8x16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8x16xf32>
  %3 = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%3 : tensor<8xf32>) -> tensor<8xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<8x16xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.addf %in, %out : f32
    linalg.yield %5 : f32
  } -> tensor<8xf32>
  iree_codegen.store_to_buffer %4, %1 : tensor<8xf32> into memref<8xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layoutc = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>

// A scalar pushed as constants (IREE shares one executable among dispatches that differ by a
// constant, passing it as i32 bits): an f32 bitcast back, an f16 truncated then bitcast; the
// kernel's body reads them as they are, broadcast.
// CHECK-LABEL: func.func @pushed_scalars
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK-DAG:     %[[P0:.+]] = hal.interface.constant.load {{.*}} ordinal(0) : i32
// CHECK-DAG:     %[[P1:.+]] = hal.interface.constant.load {{.*}} ordinal(1) : i32
// CHECK-DAG:     %[[S:.+]] = arith.bitcast %[[P0]] : i32 to f32
// CHECK-DAG:     %[[T:.+]] = arith.trunci %[[P1]] : i32 to i16
// CHECK-DAG:     %[[H:.+]] = arith.bitcast %[[T]] : i16 to f16
// CHECK:         scf.for
// CHECK:           %[[X:.+]] = vector.transfer_read
// CHECK:           %[[SV:.+]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK:           arith.subf %[[SV]], %[[X]] : vector<4xf32>
// CHECK:           %[[HV:.+]] = vector.broadcast %[[H]] : f16 to vector<4xf16>
// CHECK:           arith.extf %[[HV]] : vector<4xf16> to vector<4xf32>
// SPIRV-LABEL: func.func @pushed_scalars
// SPIRV-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
func.func @pushed_scalars() {
  %c0 = arith.constant 0 : index
  %p0 = hal.interface.constant.load layout(#layoutc) ordinal(0) : i32
  %p1 = hal.interface.constant.load layout(#layoutc) ordinal(1) : i32
  %s = arith.bitcast %p0 : i32 to f32
  %t = arith.trunci %p1 : i32 to i16
  %h = arith.bitcast %t : i16 to f16
  %0 = hal.interface.binding.subspan layout(#layoutc) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layoutc) binding(1) alignment(64) offset(%c0) flags(None) : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %3 = tensor.empty() : tensor<64xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%2 : tensor<64xf32>) outs(%3 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.subf %s, %in : f32
    %6 = arith.extf %h : f16 to f32
    %7 = arith.mulf %5, %6 : f32
    linalg.yield %7 : f32
  } -> tensor<64xf32>
  iree_codegen.store_to_buffer %4, %1 : tensor<64xf32> into memref<64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @pushed_scalars {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
