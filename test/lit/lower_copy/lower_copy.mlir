// IREE's copy dispatches (`slow_memcpy`: a pad's image written into its zero buffer, slices
// read and written at static or dynamic offsets), already on memrefs: one copy generic
// between views of bindings becomes a grid-stride copy of the rows both views have
// contiguous, in the widest vectors at which every row starts aligned in both (stated on
// CUDA), scalars where none is, a scalar tail where the row is not a multiple of them.
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-lower-copy, canonicalize, cse)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-lower-copy, canonicalize, cse)' | filecheck %s --check-prefix=VK

// The suite CNN's image into its padded buffer (NCHW, padding 3): N and C collapse in both
// views, rows of 29 floats at strides of 29 and 35 (offset 108) start aligned alike only every
// other row: scalars, 6 x 29 x 29 of them, 20 workgroups of 256.
// CHECK-LABEL: func.func @pad_nchw
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-copy"]
// CHECK-DAG:     %[[C5046:.+]] = arith.constant 5046 : index
// CHECK-DAG:     %[[C5120:.+]] = arith.constant 5120 : index
// CHECK-DAG:     %[[IN:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1], [2], [3]] : memref<2x3x29x29xf32, {{.+}}> into memref<6x29x29xf32, {{.+}}>
// CHECK-DAG:     %[[OUT:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1], [2], [3]] : {{.+}} into memref<6x29x29xf32, strided<[1225, 35, 1], offset: 108>, {{.+}}>
// CHECK:         gpu.block_id x upper_bound 20
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[C5046]] step %[[C5120]]
// CHECK:           %[[X:.+]] = memref.load %[[IN]][%{{.+}}, %{{.+}}, %{{.+}}]
// CHECK:           memref.store %[[X]], %[[OUT]][%{{.+}}, %{{.+}}, %{{.+}}]
// CHECK-NOT:     linalg.generic
// CHECK:         return
// VK-LABEL: func.func @pad_nchw
// VK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-copy"]
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @pad_nchw() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x3x29x29xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %0, 64 : memref<2x3x29x29xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x3x35x35xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_0 = memref.assume_alignment %1, 64 : memref<2x3x35x35xf32, #hal.descriptor_type<storage_buffer>>
  %subview = memref.subview %assume_align_0[0, 0, 3, 3] [2, 3, 29, 29] [1, 1, 1, 1] : memref<2x3x35x35xf32, #hal.descriptor_type<storage_buffer>> to memref<2x3x29x29xf32, strided<[3675, 1225, 35, 1], offset: 108>, #hal.descriptor_type<storage_buffer>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%assume_align : memref<2x3x29x29xf32, #hal.descriptor_type<storage_buffer>>) outs(%subview : memref<2x3x29x29xf32, strided<[3675, 1225, 35, 1], offset: 108>, #hal.descriptor_type<storage_buffer>>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

// NHWC f16, 64 channels, padding 1: W and C collapse (rows of 11 x 64), every row starts at a
// multiple of 8 halves in both views: 16-byte vectors, their alignment stated on CUDA; 4
// halves on SPIR-V.
// CHECK-LABEL: func.func @pad_nhwc_f16
// CHECK-DAG:     %[[IN:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : {{.+}} into memref<2x13x704xf16, {{.+}}>
// CHECK-DAG:     %[[OUT:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : {{.+}} into memref<2x13x704xf16, strided<[12480, 832, 1], offset: 896>, {{.+}}>
// CHECK:         scf.for
// CHECK:           %[[COL:.+]] = arith.muli %{{.+}}, %c8 : index
// CHECK:           %[[V:.+]] = vector.load %[[IN]][%{{.+}}, %{{.+}}, %[[COL]]] alignment = 16 : {{.+}}, vector<8xf16>
// CHECK:           vector.store %[[V]], %[[OUT]][%{{.+}}, %{{.+}}, %[[COL]]] alignment = 16 : {{.+}}, vector<8xf16>
// CHECK-NOT:     memref.load
// VK-LABEL: func.func @pad_nhwc_f16
// VK:           vector.transfer_read {{.+}} : memref<2x13x704xf16, {{.+}}>, vector<4xf16>
// VK:           vector.transfer_write {{.+}} : vector<4xf16>, memref<2x13x704xf16, strided<[12480, 832, 1], offset: 896>, {{.+}}>
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @pad_nhwc_f16() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x13x11x64xf16, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %0, 64 : memref<2x13x11x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x15x13x64xf16, #hal.descriptor_type<storage_buffer>>
  %assume_align_0 = memref.assume_alignment %1, 64 : memref<2x15x13x64xf16, #hal.descriptor_type<storage_buffer>>
  %subview = memref.subview %assume_align_0[0, 1, 1, 0] [2, 13, 11, 64] [1, 1, 1, 1] : memref<2x15x13x64xf16, #hal.descriptor_type<storage_buffer>> to memref<2x13x11x64xf16, strided<[12480, 832, 64, 1], offset: 896>, #hal.descriptor_type<storage_buffer>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%assume_align : memref<2x13x11x64xf16, #hal.descriptor_type<storage_buffer>>) outs(%subview : memref<2x13x11x64xf16, strided<[12480, 832, 64, 1], offset: 896>, #hal.descriptor_type<storage_buffer>>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  }
  return
}

// -----

// A slice at a column read at run time (IREE loads it from a binding in the dispatch): the
// load and its cast stay; vectors of 4 under a check that the column is a multiple of 4,
// scalars otherwise.
// CHECK-LABEL: func.func @slice_dynamic_offset
// CHECK:         %[[I:.+]] = memref.load %{{.+}}[] : memref<i32, {{.+}}>
// CHECK:         %[[COL:.+]] = arith.index_cast %[[I]] : i32 to index
// CHECK:         %[[SUB:.+]] = memref.subview %{{.+}}[0, %[[COL]]] [37, 24] [1, 1]
// CHECK:         %[[REM:.+]] = arith.remui %[[COL]], %c4 : index
// CHECK:         %[[ALIGNED:.+]] = arith.cmpi eq, %[[REM]], %c0 : index
// CHECK:         scf.if %[[ALIGNED]] {
// CHECK:           scf.for %{{.+}} = %{{.+}} to %c222 step %c256
// CHECK:             vector.load %[[SUB]][{{.+}}] alignment = 16 : {{.+}}, vector<4xf32>
// CHECK:         } else {
// CHECK:           scf.for %{{.+}} = %{{.+}} to %c888 step %c256
// CHECK:             memref.load %[[SUB]]
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @slice_dynamic_offset() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<i32, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %0, 64 : memref<i32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<37x64xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_0 = memref.assume_alignment %1, 64 : memref<37x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<37x24xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_1 = memref.assume_alignment %2, 64 : memref<37x24xf32, #hal.descriptor_type<storage_buffer>>
  %3 = memref.load %assume_align[] : memref<i32, #hal.descriptor_type<storage_buffer>>
  %4 = arith.index_cast %3 : i32 to index
  %subview = memref.subview %assume_align_0[0, %4] [37, 24] [1, 1] : memref<37x64xf32, #hal.descriptor_type<storage_buffer>> to memref<37x24xf32, strided<[64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%subview : memref<37x24xf32, strided<[64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) outs(%assume_align_1 : memref<37x24xf32, #hal.descriptor_type<storage_buffer>>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

// Columns 8..44 into columns 4..40 (a linalg.copy; both rows at strides of 64): vectors of 4
// from each row's start, 9 a row, then each row's 37th element in a loop of its own.
// CHECK-LABEL: func.func @slice_into_slice_tail
// CHECK:         scf.for %{{.+}} = %{{.+}} to %c369 step
// CHECK:           vector.load {{.+}} alignment = 16 : memref<41x37xf32, strided<[64, 1], offset: 8>, {{.+}}>, vector<4xf32>
// CHECK:           vector.store {{.+}} alignment = 16 : memref<41x37xf32, strided<[64, 1], offset: 4>, {{.+}}>, vector<4xf32>
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %c41 step
// CHECK:           %[[X:.+]] = memref.load %{{.+}}[%[[ROW]], %c36]
// CHECK:           memref.store %[[X]], %{{.+}}[%[[ROW]], %c36]
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @slice_into_slice_tail() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<41x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<41x64xf32, #hal.descriptor_type<storage_buffer>>
  %in = memref.subview %0[0, 8] [41, 37] [1, 1] : memref<41x64xf32, #hal.descriptor_type<storage_buffer>> to memref<41x37xf32, strided<[64, 1], offset: 8>, #hal.descriptor_type<storage_buffer>>
  %out = memref.subview %1[0, 4] [41, 37] [1, 1] : memref<41x64xf32, #hal.descriptor_type<storage_buffer>> to memref<41x37xf32, strided<[64, 1], offset: 4>, #hal.descriptor_type<storage_buffer>>
  linalg.copy ins(%in : memref<41x37xf32, strided<[64, 1], offset: 8>, #hal.descriptor_type<storage_buffer>>) outs(%out : memref<41x37xf32, strided<[64, 1], offset: 4>, #hal.descriptor_type<storage_buffer>>)
  return
}

// -----

// A binding at byte offset 72 of its buffer (IREE packs transients in one buffer): its rows
// are 8-byte aligned only, so vectors of 2 floats, though strides and the slice's offset
// allow 4.
// CHECK-LABEL: func.func @binding_at_an_offset
// CHECK:         scf.for
// CHECK:           vector.load {{.+}} alignment = 8 : {{.+}}, vector<2xf32>
// CHECK:           vector.store {{.+}} alignment = 8 : {{.+}}, vector<2xf32>
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @binding_at_an_offset() {
  %c0 = arith.constant 0 : index
  %c72 = arith.constant 72 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c72) flags("ReadOnly|Indirect") : memref<16x64xf32, strided<[64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16x32xf32, #hal.descriptor_type<storage_buffer>>
  %in = memref.subview %0[0, 8] [16, 32] [1, 1] : memref<16x64xf32, strided<[64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<16x32xf32, strided<[64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  linalg.copy ins(%in : memref<16x32xf32, strided<[64, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) outs(%1 : memref<16x32xf32, #hal.descriptor_type<storage_buffer>>)
  return
}
