// Copies ldsopt-lower-copy leaves to IREE's own pipeline, each with its reason: a body that
// computes, a copy that transposes, a subview of sizes not computed from the workload, i1
// elements, another op in the dispatch, a dispatch on tensors (not one of IREE's copy
// dispatches), and one element.
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-lower-copy)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-lower-copy)' -o %t

// CHECK-LABEL: func.func @negates
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @negates() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<7x9xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<9x11xf32, #hal.descriptor_type<storage_buffer>>
  %sub = memref.subview %1[1, 1] [7, 9] [1, 1] : memref<9x11xf32, #hal.descriptor_type<storage_buffer>> to memref<7x9xf32, strided<[11, 1], offset: 12>, #hal.descriptor_type<storage_buffer>>
  // expected-remark @+1 {{ldsopt-lower-copy: left to IREE: not a plain copy: its maps are not identities or its body computes}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : memref<7x9xf32, #hal.descriptor_type<storage_buffer>>) outs(%sub : memref<7x9xf32, strided<[11, 1], offset: 12>, #hal.descriptor_type<storage_buffer>>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// CHECK-LABEL: func.func @transposes
// CHECK-NOT:     ldsopt.lowered_by
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @transposes() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<9x7xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<7x9xf32, #hal.descriptor_type<storage_buffer>>
  // expected-remark @+1 {{ldsopt-lower-copy: left to IREE: not a plain copy: its maps are not identities or its body computes}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : memref<9x7xf32, #hal.descriptor_type<storage_buffer>>) outs(%1 : memref<7x9xf32, #hal.descriptor_type<storage_buffer>>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

// CHECK-LABEL: func.func @dynamic_rows
// CHECK-NOT:     ldsopt.lowered_by
#layout3 = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_rows() {
  %c0 = arith.constant 0 : index
  %n32 = hal.interface.constant.load layout(#layout3) ordinal(0) : i32
  %n = arith.index_castui %n32 : i32 to index
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<64x8xf32, #hal.descriptor_type<storage_buffer>>
  %in = memref.subview %0[0, 0] [%n, 8] [1, 1] : memref<64x8xf32, #hal.descriptor_type<storage_buffer>> to memref<?x8xf32, strided<[8, 1]>, #hal.descriptor_type<storage_buffer>>
  %out = memref.subview %1[0, 0] [%n, 8] [1, 1] : memref<64x8xf32, #hal.descriptor_type<storage_buffer>> to memref<?x8xf32, strided<[8, 1]>, #hal.descriptor_type<storage_buffer>>
  // expected-remark @+1 {{ldsopt-lower-copy: left to IREE: a dynamic size not computed from the dispatch's workload ordinals}}
  linalg.copy ins(%in : memref<?x8xf32, strided<[8, 1]>, #hal.descriptor_type<storage_buffer>>) outs(%out : memref<?x8xf32, strided<[8, 1]>, #hal.descriptor_type<storage_buffer>>)
  return
}

// -----

// CHECK-LABEL: func.func @bits
// CHECK-NOT:     ldsopt.lowered_by
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @bits() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xi1, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<64xi1, #hal.descriptor_type<storage_buffer>>
  // expected-remark @+1 {{ldsopt-lower-copy: left to IREE: copies 1-bit elements; this pass copies whole bytes}}
  linalg.copy ins(%0 : memref<64xi1, #hal.descriptor_type<storage_buffer>>) outs(%1 : memref<64xi1, #hal.descriptor_type<storage_buffer>>)
  return
}

// -----

// CHECK-LABEL: func.func @fills_too
// CHECK-NOT:     ldsopt.lowered_by
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @fills_too() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<7x9xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<9x11xf32, #hal.descriptor_type<storage_buffer>>
  %sub = memref.subview %1[1, 1] [7, 9] [1, 1] : memref<9x11xf32, #hal.descriptor_type<storage_buffer>> to memref<7x9xf32, strided<[11, 1], offset: 12>, #hal.descriptor_type<storage_buffer>>
  linalg.fill ins(%zero : f32) outs(%1 : memref<9x11xf32, #hal.descriptor_type<storage_buffer>>)
  // expected-remark @+1 {{ldsopt-lower-copy: left to IREE: computes with linalg.fill; this pass takes a copy (linalg.generic yielding its input, or linalg.copy) between views of bindings}}
  linalg.copy ins(%0 : memref<7x9xf32, #hal.descriptor_type<storage_buffer>>) outs(%sub : memref<7x9xf32, strided<[11, 1], offset: 12>, #hal.descriptor_type<storage_buffer>>)
  return
}

// -----

// CHECK-LABEL: func.func @on_tensors
// CHECK-NOT:     ldsopt.lowered_by
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @on_tensors() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<7x9xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<7x9xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<7x9xf32, #hal.descriptor_type<storage_buffer>> -> tensor<7x9xf32>
  %e = tensor.empty() : tensor<7x9xf32>
  // expected-remark @+1 {{ldsopt-lower-copy: left to IREE: computes on tensors (loads and stores of bindings): not one of IREE's copy dispatches, which are on memrefs}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<7x9xf32>) outs(%e : tensor<7x9xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<7x9xf32>
  iree_codegen.store_to_buffer %y, %1 : tensor<7x9xf32> into memref<7x9xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// CHECK-LABEL: func.func @one_element
// CHECK-NOT:     ldsopt.lowered_by
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @one_element() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<f32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<f32, #hal.descriptor_type<storage_buffer>>
  // expected-remark @+1 {{ldsopt-lower-copy: left to IREE: a copy of one element or none: nothing to vectorize or distribute}}
  linalg.copy ins(%0 : memref<f32, #hal.descriptor_type<storage_buffer>>) outs(%1 : memref<f32, #hal.descriptor_type<storage_buffer>>)
  return
}

// -----

// A copy of dynamic rows out of the second of two ?x96 matrices in one 2x?x96 binding: the
// outer dim's stride is read at run time and the subview starts one along it, so the source
// view is refused (a 1x?x96 binding is taken: lower_copy/dynamic.mlir), while the destination
// is a view the pass takes; the refusal is the source's.
// CHECK-LABEL: func.func @dynamic_outer_stride
// CHECK-NOT:     ldsopt.lowered_by
#layout3 = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_outer_stride() {
  %c0 = arith.constant 0 : index
  %n32 = hal.interface.constant.load layout(#layout3) ordinal(0) : i32
  %n = arith.index_castui %n32 : i32 to index
  %rows = iree_tensor_ext.dispatch.workload.ordinal %n, 0 : index
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x?x96xf32, #hal.descriptor_type<storage_buffer>>{%rows}
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<?x32xf32, #hal.descriptor_type<storage_buffer>>{%rows}
  %in = memref.subview %0[1, 0, 32] [1, %rows, 32] [1, 1, 1] : memref<2x?x96xf32, #hal.descriptor_type<storage_buffer>> to memref<?x32xf32, strided<[96, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  // expected-remark @+1 {{ldsopt-lower-copy: left to IREE: a subview of a view of dynamic strides}}
  linalg.copy ins(%in : memref<?x32xf32, strided<[96, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>) outs(%1 : memref<?x32xf32, #hal.descriptor_type<storage_buffer>>)
  return
}
