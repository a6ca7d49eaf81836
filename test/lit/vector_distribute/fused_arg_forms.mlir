// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute{workgroup-size=256}, canonicalize, cse)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-vector-distribute{workgroup-size=256})' -o %t

// Arg-best reductions in the other forms frontends write (fused_argmax.mlir has torch-mlir's
// max.dim), read by what they compute (ldsopt/reduction/arg_best.py), over rows of 1000 f32.

// TOSA's argmax (IREE's TOSA input): the index result first, both results selected by
// `cmpf ugt c v and cmpf ord v v` (a NaN wins), the value from -FLT_MAX. Three passes, as
// fused_argmax's: the first NaN's index, the max before it, the first index holding it. Then
// the max and its index replace the fill where the max beats it (cmpf ogt), and a NaN that
// came makes the value NaN and the index the first NaN's (the fill is a number: no check).
// CHECK-LABEL: func.func @argmax_tosa
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    passes = 3 : i64
// CHECK-DAG:     %[[NONE:.+]] = arith.constant 2147483647 : i32
// CHECK-DAG:     %[[NAN:.+]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:     %[[LOWEST:.+]] = arith.constant -3.40282347E+38 : f32
// CHECK:         %[[VALUES:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<16xf32
// CHECK:         %[[INDICES:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<16xi32
// CHECK:         arith.cmpf uno
// CHECK:         %[[FNV:.+]] = vector.broadcast %{{.+}} : i32 to vector<4xi32>
// CHECK-NEXT:    %[[BEFORE:.+]] = arith.cmpi slt, %{{.+}}, %[[FNV]] : vector<4xi32>
// CHECK:         arith.maximumf
// CHECK:         arith.cmpf oeq
// CHECK-NEXT:    arith.andi %[[BEFORE]]
// CHECK:         arith.minsi
// CHECK:         %[[BEATS:.+]] = arith.cmpf ogt, %[[MAX:.+]], %[[LOWEST]] : f32
// CHECK-NEXT:    %[[BEST:.+]] = arith.select %[[BEATS]], %[[MAX]], %[[LOWEST]] : f32
// CHECK-NEXT:    %[[HAS_NAN:.+]] = arith.cmpi ne, %[[FIRST_NAN:.+]], %[[NONE]] : i32
// CHECK-NEXT:    %[[VALUE:.+]] = arith.select %[[HAS_NAN]], %[[NAN]], %[[BEST]] : f32
// CHECK-NEXT:    %[[BEST_INDEX:.+]] = arith.select %[[BEATS]], %{{.+}}, %{{.+}} : i32
// CHECK-NEXT:    %[[INDEX:.+]] = arith.select %[[HAS_NAN]], %[[FIRST_NAN]], %[[BEST_INDEX]] : i32
// CHECK:         memref.store %[[VALUE]], %[[VALUES]]
// CHECK-NEXT:    memref.store %[[INDEX]], %[[INDICES]]
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @argmax_tosa() {
  %cv = arith.constant -3.40282347E+38 : f32
  %ci = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c64) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi32>>
  %x = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
  %ev = tensor.empty() : tensor<16xf32>
  %ei = tensor.empty() : tensor<16xi32>
  %fv = linalg.fill ins(%cv : f32) outs(%ev : tensor<16xf32>) -> tensor<16xf32>
  %fi = linalg.fill ins(%ci : i32) outs(%ei : tensor<16xi32>) -> tensor<16xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x1000xf32>) outs(%fi, %fv : tensor<16xi32>, tensor<16xf32>) {
  ^bb0(%in: f32, %i: i32, %v: f32):
    %idx = linalg.index 1 : index
    %idxc = arith.index_cast %idx : index to i32
    %gt = arith.cmpf ugt, %in, %v : f32
    %num = arith.cmpf ord, %v, %v : f32
    %better = arith.andi %gt, %num : i1
    %nv = arith.select %better, %in, %v : f32
    %ni = arith.select %better, %idxc, %i : i32
    linalg.yield %ni, %nv : i32, f32
  } -> (tensor<16xi32>, tensor<16xf32>)
  iree_tensor_ext.dispatch.tensor.store %r#1, %1, offsets = [0], sizes = [16], strides = [1] : tensor<16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  iree_tensor_ext.dispatch.tensor.store %r#0, %2, offsets = [0], sizes = [16], strides = [1] : tensor<16xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi32>>
  return
}

// -----

// argmin with selects and a plain `cmpf olt c v`: a NaN element is never taken (skipped).
// Two passes: the min of the numbers (NaN lanes counted as +inf: cmpf ord), the first index
// holding it; no first-NaN pass and no NaN result.
// CHECK-LABEL: func.func @argmin_select
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    passes = 2 : i64
// CHECK-DAG:     %[[INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK-DAG:     %[[INFS:.+]] = arith.constant dense<0x7F800000> : vector<4xf32>
// CHECK-NOT:     arith.cmpf uno
// CHECK:         %[[X:.+]] = vector.transfer_read
// CHECK:         %[[NUMBER:.+]] = arith.cmpf ord, %[[X]], %[[X]] : vector<4xf32>
// CHECK-NEXT:    arith.select %[[NUMBER]], %[[X]], %[[INFS]]
// CHECK:         arith.minimumf
// CHECK:         %[[MINV:.+]] = vector.broadcast %[[MIN:.+]] : f32 to vector<4xf32>
// CHECK-NEXT:    %[[EQ:.+]] = arith.cmpf oeq, %[[X]], %[[MINV]] : vector<4xf32>
// CHECK-NEXT:    arith.andi %[[NUMBER]], %[[EQ]] : vector<4xi1>
// CHECK:         arith.minsi
// CHECK:         %[[BEATS:.+]] = arith.cmpf olt, %[[MIN]], %[[INF]] : f32
// CHECK-NEXT:    %[[VALUE:.+]] = arith.select %[[BEATS]], %[[MIN]], %[[INF]] : f32
// CHECK-NEXT:    %[[FIRST64:.+]] = arith.extsi %{{.+}} : i32 to i64
// CHECK-NEXT:    arith.select %[[BEATS]], %[[FIRST64]], %{{.+}} : i64
// CHECK-NOT:     0x7FC00000
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @argmin_select() {
  %cv = arith.constant 0x7F800000 : f32
  %ci = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c64) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi64>>
  %x = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
  %ev = tensor.empty() : tensor<16xf32>
  %ei = tensor.empty() : tensor<16xi64>
  %fv = linalg.fill ins(%cv : f32) outs(%ev : tensor<16xf32>) -> tensor<16xf32>
  %fi = linalg.fill ins(%ci : i64) outs(%ei : tensor<16xi64>) -> tensor<16xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x1000xf32>) outs(%fv, %fi : tensor<16xf32>, tensor<16xi64>) {
  ^bb0(%in: f32, %v: f32, %i: i64):
    %idx = linalg.index 1 : index
    %idxc = arith.index_cast %idx : index to i64
    %better = arith.cmpf olt, %in, %v : f32
    %nv = arith.select %better, %in, %v : f32
    %ni = arith.select %better, %idxc, %i : i64
    linalg.yield %nv, %ni : f32, i64
  } -> (tensor<16xf32>, tensor<16xi64>)
  iree_tensor_ext.dispatch.tensor.store %r#0, %1, offsets = [0], sizes = [16], strides = [1] : tensor<16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  iree_tensor_ext.dispatch.tensor.store %r#1, %2, offsets = [0], sizes = [16], strides = [1] : tensor<16xi64> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi64>>
  return
}

// -----

// iree_linalg_ext.arg_compare (IREE 3.13's torch input lowers torch.argmax to it): its
// comparator `cmpf ogt a b` selects value and index, so a NaN is skipped: two passes, read
// as above; the index_base (100) added to the first index.
// CHECK-LABEL: func.func @arg_compare
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    passes = 2 : i64
// CHECK-DAG:     %[[BASE:.+]] = arith.constant 100 : i32
// CHECK-NOT:     iree_linalg_ext.arg_compare
// CHECK:         arith.cmpf ord
// CHECK:         arith.maximumf
// CHECK:         %[[BEATS:.+]] = arith.cmpf ogt, %[[MAX:.+]], %{{.+}} : f32
// CHECK-NEXT:    arith.select %[[BEATS]], %[[MAX]], %{{.+}} : f32
// CHECK-NEXT:    %[[AT:.+]] = arith.addi %{{.+}}, %[[BASE]] : i32
// CHECK-NEXT:    arith.select %[[BEATS]], %[[AT]], %{{.+}} : i32
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @arg_compare() {
  %cv = arith.constant 0xFF800000 : f32
  %ci = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c64) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi32>>
  %x = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
  %ev = tensor.empty() : tensor<16xf32>
  %ei = tensor.empty() : tensor<16xi32>
  %fv = linalg.fill ins(%cv : f32) outs(%ev : tensor<16xf32>) -> tensor<16xf32>
  %fi = linalg.fill ins(%ci : i32) outs(%ei : tensor<16xi32>) -> tensor<16xi32>
  %base = arith.constant 100 : index
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<16x1000xf32>) outs(%fv, %fi : tensor<16xf32>, tensor<16xi32>) index_base(%base : index) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %gt : i1
  } -> tensor<16xf32>, tensor<16xi32>
  iree_tensor_ext.dispatch.tensor.store %r#0, %1, offsets = [0], sizes = [16], strides = [1] : tensor<16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  iree_tensor_ext.dispatch.tensor.store %r#1, %2, offsets = [0], sizes = [16], strides = [1] : tensor<16xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi32>>
  return
}

// -----

// Refused: `cmpf oge` would leave the last index of the max on ties (torch and numpy keep
// the first).
// CHECK-LABEL: func.func @argmax_last_index
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @argmax_last_index() {
  %cv = arith.constant 0xFF800000 : f32
  %ci = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c64) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi64>>
  %x = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
  %ev = tensor.empty() : tensor<16xf32>
  %ei = tensor.empty() : tensor<16xi64>
  %fv = linalg.fill ins(%cv : f32) outs(%ev : tensor<16xf32>) -> tensor<16xf32>
  %fi = linalg.fill ins(%ci : i64) outs(%ei : tensor<16xi64>) -> tensor<16xi64>
  // expected-remark @+1 {{ldsopt-vector-distribute: left to IREE: an arg-best reduction whose ties go to the last index (>= or <=); takes the first, as torch and numpy do}}
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x1000xf32>) outs(%fv, %fi : tensor<16xf32>, tensor<16xi64>) {
  ^bb0(%in: f32, %v: f32, %i: i64):
    %idx = linalg.index 1 : index
    %idxc = arith.index_cast %idx : index to i64
    %m = arith.maximumf %in, %v : f32
    %better = arith.cmpf oge, %in, %v : f32
    %ni = arith.select %better, %idxc, %i : i64
    linalg.yield %m, %ni : f32, i64
  } -> (tensor<16xf32>, tensor<16xi64>)
  iree_tensor_ext.dispatch.tensor.store %r#0, %1, offsets = [0], sizes = [16], strides = [1] : tensor<16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  iree_tensor_ext.dispatch.tensor.store %r#1, %2, offsets = [0], sizes = [16], strides = [1] : tensor<16xi64> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi64>>
  return
}

// -----

// Refused: `cmpf ugt c v` alone takes a NaN element and then every later one (ugt of a
// NaN best value is true): not a best value.
// CHECK-LABEL: func.func @argmax_nan_replaced
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @argmax_nan_replaced() {
  %cv = arith.constant 0xFF800000 : f32
  %ci = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c64) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi64>>
  %x = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
  %ev = tensor.empty() : tensor<16xf32>
  %ei = tensor.empty() : tensor<16xi64>
  %fv = linalg.fill ins(%cv : f32) outs(%ev : tensor<16xf32>) -> tensor<16xf32>
  %fi = linalg.fill ins(%ci : i64) outs(%ei : tensor<16xi64>) -> tensor<16xi64>
  // expected-remark @+1 {{ldsopt-vector-distribute: left to IREE: an arg-best reduction whose NaN best value is replaced by later elements}}
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x1000xf32>) outs(%fv, %fi : tensor<16xf32>, tensor<16xi64>) {
  ^bb0(%in: f32, %v: f32, %i: i64):
    %idx = linalg.index 1 : index
    %idxc = arith.index_cast %idx : index to i64
    %better = arith.cmpf ugt, %in, %v : f32
    %nv = arith.select %better, %in, %v : f32
    %ni = arith.select %better, %idxc, %i : i64
    linalg.yield %nv, %ni : f32, i64
  } -> (tensor<16xf32>, tensor<16xi64>)
  iree_tensor_ext.dispatch.tensor.store %r#0, %1, offsets = [0], sizes = [16], strides = [1] : tensor<16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  iree_tensor_ext.dispatch.tensor.store %r#1, %2, offsets = [0], sizes = [16], strides = [1] : tensor<16xi64> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi64>>
  return
}


// -----

// The combining half of a split 1-D argmax (IREE's dispatch formation splits 131072 elements
// into 1024 x 128 and reduces each chunk first): the candidates' values and their indices in
// their chunks, the new index `position * 128 + partial index`. The phases find the position
// of the last update (the first index holding the max before the first NaN), then the body's
// index is computed there once: the position clamped (none: INT32_MAX), the partial index
// loaded at it, times 128 plus it, where the max beats the fill.
// CHECK-LABEL: func.func @argmax_split_combine
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-DAG:     %[[NONE:.+]] = arith.constant 2147483647 : i32
// CHECK-DAG:     %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[PARTIAL:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} offset(%c4096) {{.*}} : memref<1024xi32
// CHECK:         %[[INDICES:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<i32
// CHECK:         %[[IS_NONE:.+]] = arith.cmpi eq, %[[FIRST:.+]], %[[NONE]] : i32
// CHECK-NEXT:    %[[AT:.+]] = arith.select %[[IS_NONE]], %c0_i32, %[[FIRST]] : i32
// CHECK-NEXT:    %[[POS:.+]] = arith.index_cast %[[AT]] : i32 to index
// CHECK-NEXT:    %[[LOCAL:.+]] = memref.load %[[PARTIAL]][%[[POS]]]
// CHECK-NEXT:    %[[BASE:.+]] = arith.muli %[[POS]], %c128 : index
// CHECK-NEXT:    %[[BASE32:.+]] = arith.index_cast %[[BASE]] : index to i32
// CHECK-NEXT:    %[[GLOBAL:.+]] = arith.addi %[[BASE32]], %[[LOCAL]] : i32
// CHECK-NEXT:    %[[BEATS:.+]] = arith.cmpf ogt, %{{.+}}, %[[NEG_INF]] : f32
// CHECK-NEXT:    %[[INDEX:.+]] = arith.select %[[BEATS]], %[[GLOBAL]], %c0_i32 : i32
// CHECK:         memref.store %[[INDEX]], %[[INDICES]][]
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @argmax_split_combine() {
  %c0_i32 = arith.constant 0 : i32
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %cst = arith.constant 0xFF800000 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1024xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c4096) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1024xi32>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<f32>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c64) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<i32>>
  %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0], sizes = [1024], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1024xf32>> -> tensor<1024xf32>
  %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [1024], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1024xi32>> -> tensor<1024xi32>
  %6 = tensor.empty() : tensor<i32>
  %7 = tensor.empty() : tensor<f32>
  %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<f32>) -> tensor<f32>
  %9 = linalg.fill ins(%c0_i32 : i32) outs(%6 : tensor<i32>) -> tensor<i32>
  %10:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%4, %5 : tensor<1024xf32>, tensor<1024xi32>) outs(%8, %9 : tensor<f32>, tensor<i32>) {
  ^bb0(%in: f32, %in_0: i32, %out: f32, %out_1: i32):
    %11 = linalg.index 0 : index
    %12 = arith.muli %11, %c128 : index
    %13 = arith.index_cast %12 : index to i32
    %14 = arith.addi %13, %in_0 : i32
    %15 = arith.maximumf %in, %out : f32
    %16 = arith.cmpf ogt, %in, %out : f32
    %17 = arith.select %16, %14, %out_1 : i32
    linalg.yield %15, %17 : f32, i32
  } -> (tensor<f32>, tensor<i32>)
  iree_tensor_ext.dispatch.tensor.store %10#0, %2, offsets = [], sizes = [], strides = [] : tensor<f32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<f32>>
  iree_tensor_ext.dispatch.tensor.store %10#1, %3, offsets = [], sizes = [], strides = [] : tensor<i32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<i32>>
  return
}

// -----

// A new index computed from the best value (here its integer part): not a function of the
// position of the last update and the inputs there; left to IREE.
// CHECK-LABEL: func.func @argmax_index_of_the_best
// CHECK-NOT:     ldsopt.lowered_by
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @argmax_index_of_the_best() {
  %cv = arith.constant 0xFF800000 : f32
  %ci = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c64) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi32>>
  %x = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 1000], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x1000xf32>> -> tensor<16x1000xf32>
  %ev = tensor.empty() : tensor<16xf32>
  %ei = tensor.empty() : tensor<16xi32>
  %fv = linalg.fill ins(%cv : f32) outs(%ev : tensor<16xf32>) -> tensor<16xf32>
  %fi = linalg.fill ins(%ci : i32) outs(%ei : tensor<16xi32>) -> tensor<16xi32>
  // expected-remark @+1 {{ldsopt-vector-distribute: left to IREE: an arg-best reduction whose new index reads the best value or index}}
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x1000xf32>) outs(%fv, %fi : tensor<16xf32>, tensor<16xi32>) {
  ^bb0(%in: f32, %v: f32, %i: i32):
    %m = arith.maximumf %in, %v : f32
    %gt = arith.cmpf ogt, %in, %v : f32
    %whole = arith.fptosi %v : f32 to i32
    %ni = arith.select %gt, %whole, %i : i32
    linalg.yield %m, %ni : f32, i32
  } -> (tensor<16xf32>, tensor<16xi32>)
  iree_tensor_ext.dispatch.tensor.store %r#0, %1, offsets = [0], sizes = [16], strides = [1] : tensor<16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xf32>>
  iree_tensor_ext.dispatch.tensor.store %r#1, %2, offsets = [0], sizes = [16], strides = [1] : tensor<16xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16xi32>>
  return
}
