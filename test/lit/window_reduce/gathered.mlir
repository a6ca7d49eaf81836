// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-window-reduce)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-window-reduce)' -o %t

// PyTorch's AdaptiveAvgPool2d(1) as IREE's torch input forms it (a 2x8x9x11 image in a
// 10x12 buffer): rows n * 8 + c, the 99 window points h * 11 + w given their extent by an
// unread tensor.empty, the body gathering the image by tensor.extract at the indices it
// computes, outside the window a select of 0; a second result, the point count 99, a
// constant. One thread a row: the window's points in a loop, the body on scalars (the extract
// a memref.load at its indices), one store; the count stored once, by the first thread.
// CHECK-LABEL: func.func @adaptive_avg_pool_1
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-window-reduce"]
// CHECK-DAG:     %[[COUNT:.+]] = arith.constant 9.900000e+01 : f32
// CHECK-DAG:     %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<2x8x10x12xf32
// CHECK-DAG:     %[[SUMS:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<16xf32
// CHECK-DAG:     %[[N:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<f32
// CHECK:         %[[FIRST:.+]] = arith.cmpi eq, %[[T:.+]], %c0 : index
// CHECK:         scf.if %[[FIRST]] {
// CHECK-NEXT:      memref.store %[[COUNT]], %[[N]][]
// CHECK:         scf.for %[[ROW:.+]] = %[[T]] to %c16 step
// CHECK:           %[[SUM:.+]] = scf.for %[[P:.+]] = %c0 to %c99 step %c1 iter_args(%[[ACC:.+]] = %{{.+}}) -> (f32) {
// CHECK:             %[[W:.+]] = arith.remsi %[[P]], %c11 : index
// CHECK:             %[[H:.+]] = arith.divsi %[[P]], %c11 : index
// CHECK:             %[[V:.+]] = memref.load %[[X]][%{{.+}}, %{{.+}}, %[[H]], %[[W]]]
// CHECK:             arith.select %{{.+}}, %[[V]], %{{.+}} : f32
// CHECK:             %[[NEXT:.+]] = arith.addf %{{.+}}, %[[ACC]] : f32
// CHECK-NEXT:        scf.yield %[[NEXT]] : f32
// CHECK:           memref.store %[[SUM]], %[[SUMS]][%[[ROW]]]
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @adaptive_avg_pool_1() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c11 = arith.constant 11 : index
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 9.900000e+01 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x8x10x12xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<f32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<2x8x10x12xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x8x10x12xf32>
  %4 = tensor.empty() : tensor<f32>
  %5 = tensor.empty() : tensor<16xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<16xf32>) -> tensor<16xf32>
  %7 = tensor.empty() : tensor<99xi8>
  %8:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["parallel", "reduction"]} ins(%7 : tensor<99xi8>) outs(%6, %4 : tensor<16xf32>, tensor<f32>) {
  ^bb0(%in: i8, %out: f32, %out_1: f32):
    %9 = linalg.index 0 : index
    %10 = arith.remsi %9, %c8 : index
    %11 = arith.divsi %9, %c8 : index
    %12 = linalg.index 1 : index
    %13 = arith.remsi %12, %c11 : index
    %14 = arith.divsi %12, %c11 : index
    %extracted = tensor.extract %3[%11, %10, %14, %13] : tensor<2x8x10x12xf32>
    %15 = arith.cmpi ult, %14, %c9 : index
    %16 = arith.select %15, %extracted, %cst : f32
    %17 = arith.cmpi ult, %13, %c11 : index
    %18 = arith.select %17, %16, %cst : f32
    %19 = arith.addf %18, %out : f32
    linalg.yield %19, %cst_0 : f32, f32
  } -> (tensor<16xf32>, tensor<f32>)
  iree_codegen.store_to_buffer %8#0, %1 : tensor<16xf32> into memref<16xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %8#1, %2 : tensor<f32> into memref<f32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A further result the body computes (here the last point's value), not a constant: which
// point's value a 0-d result keeps is the loop order's, so it is left to IREE.
func.func @gathered_further_result_computed() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c11 = arith.constant 11 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x8x10x12xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<f32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<2x8x10x12xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x8x10x12xf32>
  %4 = tensor.empty() : tensor<f32>
  %5 = tensor.empty() : tensor<16xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<16xf32>) -> tensor<16xf32>
  %7 = tensor.empty() : tensor<99xi8>
  // expected-remark @+1 {{ldsopt-window-reduce: left to IREE: a gathered reduction with a further result other than a constant stored whole}}
  %8:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["parallel", "reduction"]} ins(%7 : tensor<99xi8>) outs(%6, %4 : tensor<16xf32>, tensor<f32>) {
  ^bb0(%in: i8, %out: f32, %out_1: f32):
    %9 = linalg.index 0 : index
    %10 = arith.remsi %9, %c8 : index
    %11 = arith.divsi %9, %c8 : index
    %12 = linalg.index 1 : index
    %13 = arith.remsi %12, %c11 : index
    %14 = arith.divsi %12, %c11 : index
    %extracted = tensor.extract %3[%11, %10, %14, %13] : tensor<2x8x10x12xf32>
    %19 = arith.addf %extracted, %out : f32
    linalg.yield %19, %extracted : f32, f32
  } -> (tensor<16xf32>, tensor<f32>)
  iree_codegen.store_to_buffer %8#0, %1 : tensor<16xf32> into memref<16xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %8#1, %2 : tensor<f32> into memref<f32, #hal.descriptor_type<storage_buffer>>
  return
}
