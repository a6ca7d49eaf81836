// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute, canonicalize, cse)' | filecheck %s

// An embedding lookup fused with the row sum after it (BERT's embeddings and the first sweep
// of their LayerNorm, as IREE forms them from a torch export): the table's row for the token
// id of each row (an i64 read once per row) is read as vectors along the row, added to the
// position embeddings, summed, and both results stored.
// CHECK-LABEL: func.func @embedding_sum
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK:         %[[TABLE:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<61x768xf16
// CHECK:         %[[IDS:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<13xi64
// CHECK:         %[[POS:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<13x768xf16
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %c13
// CHECK:           %[[ID:.+]] = memref.load %[[IDS]][%[[ROW]]] : memref<13xi64
// CHECK:           %[[COL:.+]] = arith.muli %{{.+}}, %c[[V:[0-9]+]]
// CHECK:           %[[P:.+]] = vector.transfer_read %[[POS]][%[[ROW]], %[[COL]]]{{.*}} vector<[[V]]xf16>
// CHECK:           %[[R:.+]] = arith.index_cast %[[ID]] : i64 to index
// CHECK:           %[[W:.+]] = vector.transfer_read %[[TABLE]][%[[R]], %[[COL]]]{{.*}} vector<[[V]]xf16>
// CHECK-NOT:       tensor.extract
// CHECK-NOT:       linalg.index
// CHECK:           arith.addf %[[W]], %[[P]] : vector<[[V]]xf16>
// CHECK:           gpu.shuffle xor
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @embedding_sum() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<61x768xf16>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13xi64>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x768xf16>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x768xf16>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13xf16>>
  %5 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [61, 768], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<61x768xf16>> -> tensor<61x768xf16>
  %6 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [13], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13xi64>> -> tensor<13xi64>
  %7 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [13, 768], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x768xf16>> -> tensor<13x768xf16>
  %8 = tensor.empty() : tensor<13xf16>
  %9 = tensor.empty() : tensor<13x768xf16>
  %10 = linalg.fill ins(%cst : f16) outs(%8 : tensor<13xf16>) -> tensor<13xf16>
  %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%6, %7 : tensor<13xi64>, tensor<13x768xf16>) outs(%9 : tensor<13x768xf16>) {
  ^bb0(%in: i64, %in_2: f16, %out: f16):
    %14 = linalg.index 1 : index
    %15 = arith.index_cast %in : i64 to index
    %extracted = tensor.extract %5[%15, %14] : tensor<61x768xf16>
    %16 = arith.addf %extracted, %in_2 : f16
    linalg.yield %16 : f16
  } -> tensor<13x768xf16>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%11 : tensor<13x768xf16>) outs(%10 : tensor<13xf16>) {
  ^bb0(%in: f16, %out: f16):
    %14 = arith.addf %in, %out : f16
    linalg.yield %14 : f16
  } -> tensor<13xf16>
  iree_tensor_ext.dispatch.tensor.store %11, %3, offsets = [0, 0], sizes = [13, 768], strides = [1, 1] : tensor<13x768xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x768xf16>>
  iree_tensor_ext.dispatch.tensor.store %12, %4, offsets = [0], sizes = [13], strides = [1] : tensor<13xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13xf16>>
  return
}

// -----

// The table read down a column (its row index is the row's position, its column the token
// id): not a read along the table's row, left to IREE.
// CHECK-LABEL: func.func @column_gather
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         tensor.extract
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @column_gather() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<768x61xf16>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13xi64>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x768xf16>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x768xf16>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13xf16>>
  %5 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [768, 61], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<768x61xf16>> -> tensor<768x61xf16>
  %6 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [13], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13xi64>> -> tensor<13xi64>
  %7 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [13, 768], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x768xf16>> -> tensor<13x768xf16>
  %8 = tensor.empty() : tensor<13xf16>
  %9 = tensor.empty() : tensor<13x768xf16>
  %10 = linalg.fill ins(%cst : f16) outs(%8 : tensor<13xf16>) -> tensor<13xf16>
  %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%6, %7 : tensor<13xi64>, tensor<13x768xf16>) outs(%9 : tensor<13x768xf16>) {
  ^bb0(%in: i64, %in_2: f16, %out: f16):
    %14 = linalg.index 1 : index
    %15 = arith.index_cast %in : i64 to index
    %extracted = tensor.extract %5[%14, %15] : tensor<768x61xf16>
    %16 = arith.addf %extracted, %in_2 : f16
    linalg.yield %16 : f16
  } -> tensor<13x768xf16>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%11 : tensor<13x768xf16>) outs(%10 : tensor<13xf16>) {
  ^bb0(%in: f16, %out: f16):
    %14 = arith.addf %in, %out : f16
    linalg.yield %14 : f16
  } -> tensor<13xf16>
  iree_tensor_ext.dispatch.tensor.store %11, %3, offsets = [0, 0], sizes = [13, 768], strides = [1, 1] : tensor<13x768xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x768xf16>>
  iree_tensor_ext.dispatch.tensor.store %12, %4, offsets = [0], sizes = [13], strides = [1] : tensor<13xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13xf16>>
  return
}

// -----

// A scalar read from a 0-d tensor inside the body: not a table read along the row, left to IREE.
// CHECK-LABEL: func.func @scalar_extract
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         tensor.extract
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @scalar_extract() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f16
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<f16>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13xi64>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x768xf16>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x768xf16>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13xf16>>
  %5 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [], sizes = [], strides = [] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<f16>> -> tensor<f16>
  %6 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [13], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13xi64>> -> tensor<13xi64>
  %7 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [13, 768], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x768xf16>> -> tensor<13x768xf16>
  %8 = tensor.empty() : tensor<13xf16>
  %9 = tensor.empty() : tensor<13x768xf16>
  %10 = linalg.fill ins(%cst : f16) outs(%8 : tensor<13xf16>) -> tensor<13xf16>
  %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%6, %7 : tensor<13xi64>, tensor<13x768xf16>) outs(%9 : tensor<13x768xf16>) {
  ^bb0(%in: i64, %in_2: f16, %out: f16):
    %extracted = tensor.extract %5[] : tensor<f16>
    %16 = arith.addf %extracted, %in_2 : f16
    linalg.yield %16 : f16
  } -> tensor<13x768xf16>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%11 : tensor<13x768xf16>) outs(%10 : tensor<13xf16>) {
  ^bb0(%in: f16, %out: f16):
    %14 = arith.addf %in, %out : f16
    linalg.yield %14 : f16
  } -> tensor<13xf16>
  iree_tensor_ext.dispatch.tensor.store %11, %3, offsets = [0, 0], sizes = [13, 768], strides = [1, 1] : tensor<13x768xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x768xf16>>
  iree_tensor_ext.dispatch.tensor.store %12, %4, offsets = [0], sizes = [13], strides = [1] : tensor<13xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13xf16>>
  return
}
