// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-raise-attention, canonicalize, cse)' | filecheck %s

// An ONNX graph's attention as torch-mlir imports it (models/suite.py's decoder): Q, K, V
// [1, 16, 2, 16] ([batch, seq, heads, dim]) transposed to [1, 2, 16, 16] (K to [1, 2, 16, 16]
// as K^T), collapsed to [2, 16, 16] for batch_matmul; scores scaled by 0.25, a [16, 16] mask
// added, softmax decomposed (max with its unused argmax, subtract, exp, sum, divide), P V
// expanded back and transposed to [1, 16, 2, 16]. One attention op reads Q, K and V where the
// transposes read them and writes the output in the transposed order: no transpose is left.
// CHECK-DAG: #[[Q:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d1, d4)>
// CHECK-DAG: #[[K:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5, d1, d4)>
// CHECK-DAG: #[[V:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5, d1, d3)>
// CHECK-DAG: #[[S:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> ()>
// CHECK-DAG: #[[M:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d5)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d1, d3)>
// CHECK-LABEL: func.func @decoder_attention
// CHECK-SAME:    (%[[QA:.+]]: tensor<1x16x2x16xf32>, %[[KA:.+]]: tensor<1x16x2x16xf32>, %[[VA:.+]]: tensor<1x16x2x16xf32>, %[[MASK:.+]]: tensor<16x16xf32>)
// CHECK:         %[[C:.+]] = arith.constant 2.500000e-01 : f32
// CHECK:         %[[O:.+]] = iree_linalg_ext.attention <indexing_maps = [#[[Q]], #[[K]], #[[V]], #[[S]], #[[M]], #[[OUT]]]>
// CHECK-SAME:      ins(%[[QA]], %[[KA]], %[[VA]], %[[C]], %[[MASK]] : tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>, f32, tensor<16x16xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.+]]: f32):
// CHECK-NEXT:      iree_linalg_ext.yield %[[X]] : f32
// CHECK:         %[[R:.+]] = tensor.collapse_shape %[[O]] {{\[\[}}0], [1], [2, 3]] : tensor<1x16x2x16xf32> into tensor<1x16x32xf32>
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     linalg.batch_matmul
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @decoder_attention(%q: tensor<1x16x2x16xf32>, %k: tensor<1x16x2x16xf32>, %v: tensor<1x16x2x16xf32>, %mask: tensor<16x16xf32>) -> tensor<1x16x32xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant -3.40282347E+38 : f32
  %c0_i64 = arith.constant 0 : i64
  %cst_11 = arith.constant dense<2.500000e-01> : tensor<f32>
  %22 = tensor.empty() : tensor<1x2x16x16xf32>
  %transposed = linalg.transpose ins(%q : tensor<1x16x2x16xf32>) outs(%22 : tensor<1x2x16x16xf32>) permutation = [0, 2, 1, 3]
  %transposed_24 = linalg.transpose ins(%k : tensor<1x16x2x16xf32>) outs(%22 : tensor<1x2x16x16xf32>) permutation = [0, 2, 3, 1]
  %transposed_25 = linalg.transpose ins(%v : tensor<1x16x2x16xf32>) outs(%22 : tensor<1x2x16x16xf32>) permutation = [0, 2, 1, 3]
  %collapsed = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
  %collapsed_26 = tensor.collapse_shape %transposed_24 [[0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
  %23 = tensor.empty() : tensor<2x16x16xf32>
  %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %25 = linalg.batch_matmul ins(%collapsed, %collapsed_26 : tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%24 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %expanded_27 = tensor.expand_shape %25 [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : tensor<2x16x16xf32> into tensor<1x2x16x16xf32>
  %26 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_27, %cst_11 : tensor<1x2x16x16xf32>, tensor<f32>) outs(%22 : tensor<1x2x16x16xf32>) {
  ^bb0(%in: f32, %in_34: f32, %out: f32):
    %93 = arith.mulf %in, %in_34 : f32
    linalg.yield %93 : f32
  } -> tensor<1x2x16x16xf32>
  %27 = linalg.generic {indexing_maps = [#map5, #map7, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %mask : tensor<1x2x16x16xf32>, tensor<16x16xf32>) outs(%22 : tensor<1x2x16x16xf32>) {
  ^bb0(%in: f32, %in_34: f32, %out: f32):
    %93 = arith.addf %in, %in_34 : f32
    linalg.yield %93 : f32
  } -> tensor<1x2x16x16xf32>
  %28 = tensor.empty() : tensor<1x2x16xi64>
  %29 = linalg.fill ins(%c0_i64 : i64) outs(%28 : tensor<1x2x16xi64>) -> tensor<1x2x16xi64>
  %30 = tensor.empty() : tensor<1x2x16xf32>
  %31 = linalg.fill ins(%cst_1 : f32) outs(%30 : tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
  %32:2 = linalg.generic {indexing_maps = [#map5, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%27 : tensor<1x2x16x16xf32>) outs(%31, %29 : tensor<1x2x16xf32>, tensor<1x2x16xi64>) {
  ^bb0(%in: f32, %out: f32, %out_34: i64):
    %93 = linalg.index 3 : index
    %94 = arith.index_cast %93 : index to i64
    %95 = arith.maximumf %in, %out : f32
    %96 = arith.cmpf ogt, %in, %out : f32
    %97 = arith.select %96, %94, %out_34 : i64
    linalg.yield %95, %97 : f32, i64
  } -> (tensor<1x2x16xf32>, tensor<1x2x16xi64>)
  %expanded_28 = tensor.expand_shape %32#0 [[0], [1], [2, 3]] output_shape [1, 2, 16, 1] : tensor<1x2x16xf32> into tensor<1x2x16x1xf32>
  %33 = linalg.generic {indexing_maps = [#map5, #map9, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%27, %expanded_28 : tensor<1x2x16x16xf32>, tensor<1x2x16x1xf32>) outs(%22 : tensor<1x2x16x16xf32>) {
  ^bb0(%in: f32, %in_34: f32, %out: f32):
    %93 = arith.subf %in, %in_34 : f32
    linalg.yield %93 : f32
  } -> tensor<1x2x16x16xf32>
  %34 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%33 : tensor<1x2x16x16xf32>) outs(%22 : tensor<1x2x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %93 = math.exp %in : f32
    linalg.yield %93 : f32
  } -> tensor<1x2x16x16xf32>
  %35 = tensor.empty() : tensor<1x2x16x1xf32>
  %36 = linalg.fill ins(%cst : f32) outs(%35 : tensor<1x2x16x1xf32>) -> tensor<1x2x16x1xf32>
  %37 = linalg.generic {indexing_maps = [#map5, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%34 : tensor<1x2x16x16xf32>) outs(%36 : tensor<1x2x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %93 = arith.addf %in, %out : f32
    linalg.yield %93 : f32
  } -> tensor<1x2x16x1xf32>
  %38 = linalg.generic {indexing_maps = [#map5, #map9, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34, %37 : tensor<1x2x16x16xf32>, tensor<1x2x16x1xf32>) outs(%22 : tensor<1x2x16x16xf32>) {
  ^bb0(%in: f32, %in_34: f32, %out: f32):
    %93 = arith.divf %in, %in_34 : f32
    linalg.yield %93 : f32
  } -> tensor<1x2x16x16xf32>
  %collapsed_29 = tensor.collapse_shape %38 [[0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
  %collapsed_30 = tensor.collapse_shape %transposed_25 [[0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
  %39 = linalg.batch_matmul ins(%collapsed_29, %collapsed_30 : tensor<2x16x16xf32>, tensor<2x16x16xf32>) outs(%24 : tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %expanded_31 = tensor.expand_shape %39 [[0, 1], [2], [3]] output_shape [1, 2, 16, 16] : tensor<2x16x16xf32> into tensor<1x2x16x16xf32>
  %40 = tensor.empty() : tensor<1x16x2x16xf32>
  %transposed_32 = linalg.transpose ins(%expanded_31 : tensor<1x2x16x16xf32>) outs(%40 : tensor<1x16x2x16xf32>) permutation = [0, 2, 1, 3]
  %collapsed_33 = tensor.collapse_shape %transposed_32 [[0], [1], [2, 3]] : tensor<1x16x2x16xf32> into tensor<1x16x32xf32>
  return %collapsed_33 : tensor<1x16x32xf32>
}

// -----

// Left alone: the softmax's result is also returned (the program computes P whole anyway), so
// the chain is not one attention.
// CHECK-LABEL: func.func @probabilities_returned
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         linalg.batch_matmul
// CHECK:         linalg.softmax
// CHECK:         linalg.batch_matmul
func.func @probabilities_returned(%q: tensor<4x8x16xf32>, %kt: tensor<4x16x8xf32>, %v: tensor<4x8x16xf32>) -> (tensor<4x8x16xf32>, tensor<4x8x8xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %e2 = tensor.empty() : tensor<4x8x16xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%z2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o, %p : tensor<4x8x16xf32>, tensor<4x8x8xf32>
}

// -----

// A 3-D chain with linalg.softmax and no scale or mask, K^T a transpose of K [g, keys, dim]: one
// attention of scale 1 over [g, m, d] reading K itself.
// CHECK-DAG:   #[[K3:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>
// CHECK-LABEL: func.func @softmax_op
// CHECK-SAME:    (%[[Q:.+]]: tensor<4x8x16xf32>, %[[K:.+]]: tensor<4x8x16xf32>, %[[V:.+]]: tensor<4x8x16xf32>)
// CHECK:         %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK:         iree_linalg_ext.attention <indexing_maps = [#{{.+}}, #[[K3]], {{.*}}]>
// CHECK-SAME:      ins(%[[Q]], %[[K]], %[[V]], %[[ONE]] : tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<4x8x16xf32>, f32)
// CHECK-NOT:     linalg.softmax
func.func @softmax_op(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %et = tensor.empty() : tensor<4x16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<4x8x16xf32>) outs(%et : tensor<4x16x8xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %e2 = tensor.empty() : tensor<4x8x16xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%z2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// Left alone: one key (LeViT's last stage attends over one token). IREE would fold the unit key
// loop away, and ldsopt-attention takes no attention without a key loop, so the raised op would
// leave IREE a dispatch it cannot compile for Vulkan.
// CHECK-LABEL: func.func @one_key
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         linalg.softmax
func.func @one_key(%q: tensor<4x8x16xf32>, %k: tensor<4x1x16xf32>, %v: tensor<4x1x16xf32>) -> tensor<4x8x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %et = tensor.empty() : tensor<4x16x1xf32>
  %kt = linalg.transpose ins(%k : tensor<4x1x16xf32>) outs(%et : tensor<4x16x1xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<4x8x1xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x8x16xf32>, tensor<4x16x1xf32>) outs(%z : tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x8x1xf32>) outs(%e : tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %e2 = tensor.empty() : tensor<4x8x16xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x8x1xf32>, tensor<4x1x16xf32>) outs(%z2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// Left alone: K^T is an input of its own ([g, dim, keys]), so the raised op would read K down its
// keys, which ldsopt-attention's kernels do not (IREE would get one dispatch it cannot compile
// for Vulkan instead of three that ldsopt lowers).
// CHECK-LABEL: func.func @k_transposed_input
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         linalg.softmax
func.func @k_transposed_input(%q: tensor<4x8x16xf32>, %kt: tensor<4x16x8xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %e2 = tensor.empty() : tensor<4x8x16xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%z2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// Grouped-query attention as torch-mlir imports Llama's (models/suite.py's llama_block): 4
// query heads over 2 K/V heads, K and V [1, 2, 16, 8] broadcast to [1, 2, 2, 16, 8] (repeat_kv's
// Unsqueeze and Expand), K's collapsed to [1, 4, 16, 8] and transposed, V's collapsed to
// [4, 16, 8] at once. The attention reads K and V where the broadcasts read them (no repeat
// loop r in their maps), Q through a view splitting its heads into (K/V head, repeat), and
// writes the output [1, 16, 2, 2, 8], merged back to [1, 16, 4, 8].
// CHECK-DAG: #[[Q:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d5)>
// CHECK-DAG: #[[K:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d6, d5)>
// CHECK-DAG: #[[V:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d6, d4)>
// CHECK-DAG: #[[S:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> ()>
// CHECK-DAG: #[[M:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d6)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d3, d1, d2, d4)>
// CHECK-LABEL: func.func @gqa_attention
// CHECK-SAME:    (%[[QA:.+]]: tensor<1x4x16x8xf32>, %[[KA:.+]]: tensor<1x2x16x8xf32>, %[[VA:.+]]: tensor<1x2x16x8xf32>, %[[MASK:.+]]: tensor<16x16xf32>)
// CHECK:         %[[QE:.+]] = tensor.expand_shape %[[QA]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 16, 8]
// CHECK:         %[[O:.+]] = iree_linalg_ext.attention <indexing_maps = [#[[Q]], #[[K]], #[[V]], #[[S]], #[[M]], #[[OUT]]]>
// CHECK-SAME:      ins(%[[QE]], %[[KA]], %[[VA]], %{{.+}}, %[[MASK]] : tensor<1x2x2x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>, f32, tensor<16x16xf32>)
// CHECK-SAME:      outs(%{{.+}} : tensor<1x16x2x2x8xf32>)
// CHECK:         %[[R:.+]] = tensor.collapse_shape %[[O]] {{\[\[}}0], [1], [2, 3, 4]] : tensor<1x16x2x2x8xf32> into tensor<1x16x32xf32>
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     linalg.batch_matmul
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map8 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map9 = affine_map<(d0, d1, d2, d3) -> ()>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @gqa_attention(%q: tensor<1x4x16x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>, %mask: tensor<16x16xf32>) -> tensor<1x16x32xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant -3.40282347E+38 : f32
  %c0_i64 = arith.constant 0 : i64
  %cst_9 = arith.constant dense<0.353553385> : tensor<f32>
  %34 = tensor.empty() : tensor<1x2x2x16x8xf32>
  %35 = linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x16x8xf32>) outs(%34 : tensor<1x2x2x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x16x8xf32>
  %collapsed = tensor.collapse_shape %35 [[0], [1, 2], [3], [4]] : tensor<1x2x2x16x8xf32> into tensor<1x4x16x8xf32>
  %36 = linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x2x16x8xf32>) outs(%34 : tensor<1x2x2x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x16x8xf32>
  %37 = tensor.empty() : tensor<1x4x8x16xf32>
  %transposed_25 = linalg.transpose ins(%collapsed : tensor<1x4x16x8xf32>) outs(%37 : tensor<1x4x8x16xf32>) permutation = [0, 1, 3, 2]
  %collapsed_26 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %collapsed_27 = tensor.collapse_shape %transposed_25 [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
  %38 = tensor.empty() : tensor<4x16x16xf32>
  %39 = linalg.fill ins(%cst : f32) outs(%38 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %40 = linalg.batch_matmul ins(%collapsed_26, %collapsed_27 : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%39 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %expanded_28 = tensor.expand_shape %40 [[0, 1], [2], [3]] output_shape [1, 4, 16, 16] : tensor<4x16x16xf32> into tensor<1x4x16x16xf32>
  %41 = tensor.empty() : tensor<1x4x16x16xf32>
  %42 = linalg.generic {indexing_maps = [#map5, #map9, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_28, %cst_9 : tensor<1x4x16x16xf32>, tensor<f32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_35: f32, %out: f32):
    %84 = arith.mulf %in, %in_35 : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %43 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%42, %mask : tensor<1x4x16x16xf32>, tensor<16x16xf32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_35: f32, %out: f32):
    %84 = arith.addf %in, %in_35 : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %44 = tensor.empty() : tensor<1x4x16xi64>
  %45 = linalg.fill ins(%c0_i64 : i64) outs(%44 : tensor<1x4x16xi64>) -> tensor<1x4x16xi64>
  %46 = tensor.empty() : tensor<1x4x16xf32>
  %47 = linalg.fill ins(%cst_1 : f32) outs(%46 : tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %48:2 = linalg.generic {indexing_maps = [#map5, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%43 : tensor<1x4x16x16xf32>) outs(%47, %45 : tensor<1x4x16xf32>, tensor<1x4x16xi64>) {
  ^bb0(%in: f32, %out: f32, %out_35: i64):
    %84 = linalg.index 3 : index
    %85 = arith.index_cast %84 : index to i64
    %86 = arith.maximumf %in, %out : f32
    %87 = arith.cmpf ogt, %in, %out : f32
    %88 = arith.select %87, %85, %out_35 : i64
    linalg.yield %86, %88 : f32, i64
  } -> (tensor<1x4x16xf32>, tensor<1x4x16xi64>)
  %expanded_29 = tensor.expand_shape %48#0 [[0], [1], [2, 3]] output_shape [1, 4, 16, 1] : tensor<1x4x16xf32> into tensor<1x4x16x1xf32>
  %49 = linalg.generic {indexing_maps = [#map5, #map11, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43, %expanded_29 : tensor<1x4x16x16xf32>, tensor<1x4x16x1xf32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_35: f32, %out: f32):
    %84 = arith.subf %in, %in_35 : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %50 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49 : tensor<1x4x16x16xf32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %84 = math.exp %in : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %51 = tensor.empty() : tensor<1x4x16x1xf32>
  %52 = linalg.fill ins(%cst : f32) outs(%51 : tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %53 = linalg.generic {indexing_maps = [#map5, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%50 : tensor<1x4x16x16xf32>) outs(%52 : tensor<1x4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %84 = arith.addf %in, %out : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x1xf32>
  %54 = linalg.generic {indexing_maps = [#map5, #map11, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%50, %53 : tensor<1x4x16x16xf32>, tensor<1x4x16x1xf32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_35: f32, %out: f32):
    %84 = arith.divf %in, %in_35 : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %collapsed_30 = tensor.collapse_shape %54 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %collapsed_31 = tensor.collapse_shape %36 [[0, 1, 2], [3], [4]] : tensor<1x2x2x16x8xf32> into tensor<4x16x8xf32>
  %55 = tensor.empty() : tensor<4x16x8xf32>
  %56 = linalg.fill ins(%cst : f32) outs(%55 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %57 = linalg.batch_matmul ins(%collapsed_30, %collapsed_31 : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%56 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %expanded_32 = tensor.expand_shape %57 [[0, 1], [2], [3]] output_shape [1, 4, 16, 8] : tensor<4x16x8xf32> into tensor<1x4x16x8xf32>
  %58 = tensor.empty() : tensor<1x16x4x8xf32>
  %transposed_33 = linalg.transpose ins(%expanded_32 : tensor<1x4x16x8xf32>) outs(%58 : tensor<1x16x4x8xf32>) permutation = [0, 2, 1, 3]
  %collapsed_34 = tensor.collapse_shape %transposed_33 [[0], [1], [2, 3]] : tensor<1x16x4x8xf32> into tensor<1x16x32xf32>
  return %collapsed_34 : tensor<1x16x32xf32>
}

// -----

// The same with Q computed (scaled, as Llama's RoPE computes it): its split into (K/V head,
// repeat) is a view of the computed Q (ldsopt-pin-attention-reshapes then keeps it there).
// CHECK-LABEL: func.func @gqa_attention_computed_q
// CHECK:         %[[QR:.+]] = linalg.generic
// CHECK:         %[[QE:.+]] = tensor.expand_shape %[[QR]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 16, 8]
// CHECK:         iree_linalg_ext.attention
// CHECK-SAME:      ins(%[[QE]],
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map8 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map9 = affine_map<(d0, d1, d2, d3) -> ()>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @gqa_attention_computed_q(%q: tensor<1x4x16x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>, %mask: tensor<16x16xf32>) -> tensor<1x16x32xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant -3.40282347E+38 : f32
  %c0_i64 = arith.constant 0 : i64
  %cst_9 = arith.constant dense<0.353553385> : tensor<f32>
  %34 = tensor.empty() : tensor<1x2x2x16x8xf32>
  %35 = linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x16x8xf32>) outs(%34 : tensor<1x2x2x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x16x8xf32>
  %collapsed = tensor.collapse_shape %35 [[0], [1, 2], [3], [4]] : tensor<1x2x2x16x8xf32> into tensor<1x4x16x8xf32>
  %36 = linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x2x16x8xf32>) outs(%34 : tensor<1x2x2x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x16x8xf32>
  %37 = tensor.empty() : tensor<1x4x8x16xf32>
  %transposed_25 = linalg.transpose ins(%collapsed : tensor<1x4x16x8xf32>) outs(%37 : tensor<1x4x8x16xf32>) permutation = [0, 1, 3, 2]
  %two = arith.constant 2.000000e+00 : f32
  %qe = tensor.empty() : tensor<1x4x16x8xf32>
  %qr = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x4x16x8xf32>) outs(%qe : tensor<1x4x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %two : f32
    linalg.yield %r : f32
  } -> tensor<1x4x16x8xf32>
  %collapsed_26 = tensor.collapse_shape %qr [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %collapsed_27 = tensor.collapse_shape %transposed_25 [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
  %38 = tensor.empty() : tensor<4x16x16xf32>
  %39 = linalg.fill ins(%cst : f32) outs(%38 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %40 = linalg.batch_matmul ins(%collapsed_26, %collapsed_27 : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%39 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %expanded_28 = tensor.expand_shape %40 [[0, 1], [2], [3]] output_shape [1, 4, 16, 16] : tensor<4x16x16xf32> into tensor<1x4x16x16xf32>
  %41 = tensor.empty() : tensor<1x4x16x16xf32>
  %42 = linalg.generic {indexing_maps = [#map5, #map9, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_28, %cst_9 : tensor<1x4x16x16xf32>, tensor<f32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_35: f32, %out: f32):
    %84 = arith.mulf %in, %in_35 : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %43 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%42, %mask : tensor<1x4x16x16xf32>, tensor<16x16xf32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_35: f32, %out: f32):
    %84 = arith.addf %in, %in_35 : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %44 = tensor.empty() : tensor<1x4x16xi64>
  %45 = linalg.fill ins(%c0_i64 : i64) outs(%44 : tensor<1x4x16xi64>) -> tensor<1x4x16xi64>
  %46 = tensor.empty() : tensor<1x4x16xf32>
  %47 = linalg.fill ins(%cst_1 : f32) outs(%46 : tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %48:2 = linalg.generic {indexing_maps = [#map5, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%43 : tensor<1x4x16x16xf32>) outs(%47, %45 : tensor<1x4x16xf32>, tensor<1x4x16xi64>) {
  ^bb0(%in: f32, %out: f32, %out_35: i64):
    %84 = linalg.index 3 : index
    %85 = arith.index_cast %84 : index to i64
    %86 = arith.maximumf %in, %out : f32
    %87 = arith.cmpf ogt, %in, %out : f32
    %88 = arith.select %87, %85, %out_35 : i64
    linalg.yield %86, %88 : f32, i64
  } -> (tensor<1x4x16xf32>, tensor<1x4x16xi64>)
  %expanded_29 = tensor.expand_shape %48#0 [[0], [1], [2, 3]] output_shape [1, 4, 16, 1] : tensor<1x4x16xf32> into tensor<1x4x16x1xf32>
  %49 = linalg.generic {indexing_maps = [#map5, #map11, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43, %expanded_29 : tensor<1x4x16x16xf32>, tensor<1x4x16x1xf32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_35: f32, %out: f32):
    %84 = arith.subf %in, %in_35 : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %50 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49 : tensor<1x4x16x16xf32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %84 = math.exp %in : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %51 = tensor.empty() : tensor<1x4x16x1xf32>
  %52 = linalg.fill ins(%cst : f32) outs(%51 : tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %53 = linalg.generic {indexing_maps = [#map5, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%50 : tensor<1x4x16x16xf32>) outs(%52 : tensor<1x4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %84 = arith.addf %in, %out : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x1xf32>
  %54 = linalg.generic {indexing_maps = [#map5, #map11, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%50, %53 : tensor<1x4x16x16xf32>, tensor<1x4x16x1xf32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_35: f32, %out: f32):
    %84 = arith.divf %in, %in_35 : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %collapsed_30 = tensor.collapse_shape %54 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %collapsed_31 = tensor.collapse_shape %36 [[0, 1, 2], [3], [4]] : tensor<1x2x2x16x8xf32> into tensor<4x16x8xf32>
  %55 = tensor.empty() : tensor<4x16x8xf32>
  %56 = linalg.fill ins(%cst : f32) outs(%55 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %57 = linalg.batch_matmul ins(%collapsed_30, %collapsed_31 : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%56 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %expanded_32 = tensor.expand_shape %57 [[0, 1], [2], [3]] output_shape [1, 4, 16, 8] : tensor<4x16x8xf32> into tensor<1x4x16x8xf32>
  %58 = tensor.empty() : tensor<1x16x4x8xf32>
  %transposed_33 = linalg.transpose ins(%expanded_32 : tensor<1x4x16x8xf32>) outs(%58 : tensor<1x16x4x8xf32>) permutation = [0, 2, 1, 3]
  %collapsed_34 = tensor.collapse_shape %transposed_33 [[0], [1], [2, 3]] : tensor<1x16x4x8xf32> into tensor<1x16x32xf32>
  return %collapsed_34 : tensor<1x16x32xf32>
}

// -----

// The same chain with V already merged ([4, 16, 8], no [batch, heads] collapse of it) but the
// scores expanded to [1, 4, 16, 16]: the operands' batch is one loop and the mask's map has
// two: left alone (the chain's batch matmuls stay).
// CHECK-LABEL: func.func @unsplit_values
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK-COUNT-2: linalg.batch_matmul
// CHECK-NOT:     iree_linalg_ext.attention
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map8 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map9 = affine_map<(d0, d1, d2, d3) -> ()>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @unsplit_values(%q: tensor<1x4x16x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<4x16x8xf32>, %mask: tensor<16x16xf32>) -> tensor<1x16x32xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant -3.40282347E+38 : f32
  %c0_i64 = arith.constant 0 : i64
  %cst_9 = arith.constant dense<0.353553385> : tensor<f32>
  %34 = tensor.empty() : tensor<1x2x2x16x8xf32>
  %35 = linalg.generic {indexing_maps = [#map7, #map8], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x16x8xf32>) outs(%34 : tensor<1x2x2x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x16x8xf32>
  %collapsed = tensor.collapse_shape %35 [[0], [1, 2], [3], [4]] : tensor<1x2x2x16x8xf32> into tensor<1x4x16x8xf32>
  %37 = tensor.empty() : tensor<1x4x8x16xf32>
  %transposed_25 = linalg.transpose ins(%collapsed : tensor<1x4x16x8xf32>) outs(%37 : tensor<1x4x8x16xf32>) permutation = [0, 1, 3, 2]
  %collapsed_26 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %collapsed_27 = tensor.collapse_shape %transposed_25 [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
  %38 = tensor.empty() : tensor<4x16x16xf32>
  %39 = linalg.fill ins(%cst : f32) outs(%38 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %40 = linalg.batch_matmul ins(%collapsed_26, %collapsed_27 : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%39 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %expanded_28 = tensor.expand_shape %40 [[0, 1], [2], [3]] output_shape [1, 4, 16, 16] : tensor<4x16x16xf32> into tensor<1x4x16x16xf32>
  %41 = tensor.empty() : tensor<1x4x16x16xf32>
  %42 = linalg.generic {indexing_maps = [#map5, #map9, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_28, %cst_9 : tensor<1x4x16x16xf32>, tensor<f32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_35: f32, %out: f32):
    %84 = arith.mulf %in, %in_35 : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %43 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%42, %mask : tensor<1x4x16x16xf32>, tensor<16x16xf32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_35: f32, %out: f32):
    %84 = arith.addf %in, %in_35 : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %44 = tensor.empty() : tensor<1x4x16xi64>
  %45 = linalg.fill ins(%c0_i64 : i64) outs(%44 : tensor<1x4x16xi64>) -> tensor<1x4x16xi64>
  %46 = tensor.empty() : tensor<1x4x16xf32>
  %47 = linalg.fill ins(%cst_1 : f32) outs(%46 : tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %48:2 = linalg.generic {indexing_maps = [#map5, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%43 : tensor<1x4x16x16xf32>) outs(%47, %45 : tensor<1x4x16xf32>, tensor<1x4x16xi64>) {
  ^bb0(%in: f32, %out: f32, %out_35: i64):
    %84 = linalg.index 3 : index
    %85 = arith.index_cast %84 : index to i64
    %86 = arith.maximumf %in, %out : f32
    %87 = arith.cmpf ogt, %in, %out : f32
    %88 = arith.select %87, %85, %out_35 : i64
    linalg.yield %86, %88 : f32, i64
  } -> (tensor<1x4x16xf32>, tensor<1x4x16xi64>)
  %expanded_29 = tensor.expand_shape %48#0 [[0], [1], [2, 3]] output_shape [1, 4, 16, 1] : tensor<1x4x16xf32> into tensor<1x4x16x1xf32>
  %49 = linalg.generic {indexing_maps = [#map5, #map11, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43, %expanded_29 : tensor<1x4x16x16xf32>, tensor<1x4x16x1xf32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_35: f32, %out: f32):
    %84 = arith.subf %in, %in_35 : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %50 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49 : tensor<1x4x16x16xf32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %84 = math.exp %in : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %51 = tensor.empty() : tensor<1x4x16x1xf32>
  %52 = linalg.fill ins(%cst : f32) outs(%51 : tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %53 = linalg.generic {indexing_maps = [#map5, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%50 : tensor<1x4x16x16xf32>) outs(%52 : tensor<1x4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %84 = arith.addf %in, %out : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x1xf32>
  %54 = linalg.generic {indexing_maps = [#map5, #map11, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%50, %53 : tensor<1x4x16x16xf32>, tensor<1x4x16x1xf32>) outs(%41 : tensor<1x4x16x16xf32>) {
  ^bb0(%in: f32, %in_35: f32, %out: f32):
    %84 = arith.divf %in, %in_35 : f32
    linalg.yield %84 : f32
  } -> tensor<1x4x16x16xf32>
  %collapsed_30 = tensor.collapse_shape %54 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
    %55 = tensor.empty() : tensor<4x16x8xf32>
  %56 = linalg.fill ins(%cst : f32) outs(%55 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %57 = linalg.batch_matmul ins(%collapsed_30, %v : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%56 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %expanded_32 = tensor.expand_shape %57 [[0, 1], [2], [3]] output_shape [1, 4, 16, 8] : tensor<4x16x8xf32> into tensor<1x4x16x8xf32>
  %58 = tensor.empty() : tensor<1x16x4x8xf32>
  %transposed_33 = linalg.transpose ins(%expanded_32 : tensor<1x4x16x8xf32>) outs(%58 : tensor<1x16x4x8xf32>) permutation = [0, 2, 1, 3]
  %collapsed_34 = tensor.collapse_shape %transposed_33 [[0], [1], [2, 3]] : tensor<1x16x4x8xf32> into tensor<1x16x32xf32>
  return %collapsed_34 : tensor<1x16x32xf32>
}

// -----

// T5's relative position bias, [1, heads, m, k2], added over a batch of 3: read at batch 0
// through a constant in the add's map. The attention reads it collapsed to [heads, m, k2]
// through a projection: IREE's attention op reads each result of its maps as a loop, so the
// constant would index it by batch (its verifier fails: "Shape Mismatch for Mask").
// CHECK-DAG: #[[M:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d5)>
// CHECK-LABEL: func.func @bias_broadcast_over_batch
// CHECK-SAME:    %[[BIAS:[^:]+]]: tensor<1x2x16x16xf32>
// CHECK:         %[[B:.+]] = tensor.collapse_shape %[[BIAS]] {{\[\[}}0, 1], [2], [3]] : tensor<1x2x16x16xf32> into tensor<2x16x16xf32>
// CHECK:         iree_linalg_ext.attention <indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}, #{{.+}}, #[[M]], #{{.+}}]>
// CHECK-SAME:      %[[B]] : {{.*}}tensor<2x16x16xf32>)
// CHECK-NOT:     linalg.batch_matmul
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
func.func @bias_broadcast_over_batch(%q: tensor<3x2x16x8xf32>, %k: tensor<3x2x16x8xf32>, %v: tensor<3x2x16x8xf32>, %bias: tensor<1x2x16x16xf32>) -> tensor<3x2x16x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %ekt = tensor.empty() : tensor<3x2x8x16xf32>
  %kt = linalg.transpose ins(%k : tensor<3x2x16x8xf32>) outs(%ekt : tensor<3x2x8x16xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<3x2x16x8xf32> into tensor<6x16x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<3x2x8x16xf32> into tensor<6x8x16xf32>
  %es = tensor.empty() : tensor<6x16x16xf32>
  %zs = linalg.fill ins(%cst : f32) outs(%es : tensor<6x16x16xf32>) -> tensor<6x16x16xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<6x16x8xf32>, tensor<6x8x16xf32>) outs(%zs : tensor<6x16x16xf32>) -> tensor<6x16x16xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [3, 2, 16, 16] : tensor<6x16x16xf32> into tensor<3x2x16x16xf32>
  %e4 = tensor.empty() : tensor<3x2x16x16xf32>
  %l = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %bias : tensor<3x2x16x16xf32>, tensor<1x2x16x16xf32>) outs(%e4 : tensor<3x2x16x16xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %a = arith.addf %in, %b : f32
    linalg.yield %a : f32
  } -> tensor<3x2x16x16xf32>
  %p = linalg.softmax dimension(3) ins(%l : tensor<3x2x16x16xf32>) outs(%e4 : tensor<3x2x16x16xf32>) -> tensor<3x2x16x16xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<3x2x16x16xf32> into tensor<6x16x16xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<3x2x16x8xf32> into tensor<6x16x8xf32>
  %eo = tensor.empty() : tensor<6x16x8xf32>
  %zo = linalg.fill ins(%cst : f32) outs(%eo : tensor<6x16x8xf32>) -> tensor<6x16x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<6x16x16xf32>, tensor<6x16x8xf32>) outs(%zo : tensor<6x16x8xf32>) -> tensor<6x16x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [3, 2, 16, 8] : tensor<6x16x8xf32> into tensor<3x2x16x8xf32>
  return %o4 : tensor<3x2x16x8xf32>
}

// -----

// timm's ViT attention (a packed QKV [3, batch, heads, s, d] unbound): Q and V are collapses
// of rank-5 slices [1, 3, 2, 16, 8], whose leading dims are not a grouped-query attention's
// [batch, K/V heads, repeats] (the scores' are [3, 2]). Read through their collapses, as
// [batch, heads]: raised, with no grouped-query loop (read as one, the batch was 1 in Q and 3
// in K, and the expand of the output failed to verify).
// CHECK-LABEL: func.func @packed_qkv_slices
// CHECK:         %[[Q:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2], [3], [4]] : tensor<1x3x2x16x8xf32> into tensor<3x2x16x8xf32>
// CHECK:         iree_linalg_ext.attention
// CHECK-SAME:      ins(%[[Q]], {{.*}} : tensor<3x2x16x8xf32>, tensor<3x2x16x8xf32>, tensor<3x2x16x8xf32>, f32)
// CHECK-NOT:     linalg.batch_matmul
func.func @packed_qkv_slices(%qkv: tensor<3x3x2x16x8xf32>, %k: tensor<3x2x16x8xf32>) -> tensor<3x2x16x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %q = tensor.extract_slice %qkv[0, 0, 0, 0, 0] [1, 3, 2, 16, 8] [1, 1, 1, 1, 1] : tensor<3x3x2x16x8xf32> to tensor<1x3x2x16x8xf32>
  %v = tensor.extract_slice %qkv[2, 0, 0, 0, 0] [1, 3, 2, 16, 8] [1, 1, 1, 1, 1] : tensor<3x3x2x16x8xf32> to tensor<1x3x2x16x8xf32>
  %ekt = tensor.empty() : tensor<3x2x8x16xf32>
  %kt = linalg.transpose ins(%k : tensor<3x2x16x8xf32>) outs(%ekt : tensor<3x2x8x16xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1, 2], [3], [4]] : tensor<1x3x2x16x8xf32> into tensor<6x16x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<3x2x8x16xf32> into tensor<6x8x16xf32>
  %es = tensor.empty() : tensor<6x16x16xf32>
  %zs = linalg.fill ins(%cst : f32) outs(%es : tensor<6x16x16xf32>) -> tensor<6x16x16xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<6x16x8xf32>, tensor<6x8x16xf32>) outs(%zs : tensor<6x16x16xf32>) -> tensor<6x16x16xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [3, 2, 16, 16] : tensor<6x16x16xf32> into tensor<3x2x16x16xf32>
  %e4 = tensor.empty() : tensor<3x2x16x16xf32>
  %p = linalg.softmax dimension(3) ins(%s4 : tensor<3x2x16x16xf32>) outs(%e4 : tensor<3x2x16x16xf32>) -> tensor<3x2x16x16xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<3x2x16x16xf32> into tensor<6x16x16xf32>
  %vc = tensor.collapse_shape %v [[0, 1, 2], [3], [4]] : tensor<1x3x2x16x8xf32> into tensor<6x16x8xf32>
  %eo = tensor.empty() : tensor<6x16x8xf32>
  %zo = linalg.fill ins(%cst : f32) outs(%eo : tensor<6x16x8xf32>) -> tensor<6x16x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<6x16x16xf32>, tensor<6x16x8xf32>) outs(%zo : tensor<6x16x8xf32>) -> tensor<6x16x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [3, 2, 16, 8] : tensor<6x16x8xf32> into tensor<3x2x16x8xf32>
  return %o4 : tensor<3x2x16x8xf32>
}

// -----

// PyTorch's `scores / math.sqrt(d)`: the divisor a constant the body reads, an f64 truncated
// to f32 there (no tensor operand). The attention scales by its inverse, 1 / sqrt(8).
// CHECK-LABEL: func.func @scale_in_the_body
// CHECK:         %[[C:.+]] = arith.constant 0.353553385 : f32
// CHECK:         iree_linalg_ext.attention
// CHECK-SAME:      ins(%{{.+}}, %{{.+}}, %{{.+}}, %[[C]] :
// CHECK-NOT:     linalg.batch_matmul
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @scale_in_the_body(%q: tensor<2x2x16x8xf32>, %k: tensor<2x2x16x8xf32>, %v: tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %d = arith.constant 2.8284271247461903 : f64
  %ekt = tensor.empty() : tensor<2x2x8x16xf32>
  %kt = linalg.transpose ins(%k : tensor<2x2x16x8xf32>) outs(%ekt : tensor<2x2x8x16xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
  %es = tensor.empty() : tensor<4x16x16xf32>
  %zs = linalg.fill ins(%cst : f32) outs(%es : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%zs : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 2, 16, 16] : tensor<4x16x16xf32> into tensor<2x2x16x16xf32>
  %e4 = tensor.empty() : tensor<2x2x16x16xf32>
  %l = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4 : tensor<2x2x16x16xf32>) outs(%e4 : tensor<2x2x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.truncf %d : f64 to f32
    %r = arith.divf %in, %t : f32
    linalg.yield %r : f32
  } -> tensor<2x2x16x16xf32>
  %p = linalg.softmax dimension(3) ins(%l : tensor<2x2x16x16xf32>) outs(%e4 : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x2x16x16xf32> into tensor<4x16x16xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
  %eo = tensor.empty() : tensor<4x16x8xf32>
  %zo = linalg.fill ins(%cst : f32) outs(%eo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%zo : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 2, 16, 8] : tensor<4x16x8xf32> into tensor<2x2x16x8xf32>
  return %o4 : tensor<2x2x16x8xf32>
}

// -----

// Left alone: the batch is dynamic (an export with a dynamic batch, compiled with it dynamic).
// ldsopt-attention takes no dynamic batch (dynamic query rows and keys only), and the expands of
// the raised op's views would need the batch's extent (built without it, they failed to verify).
// CHECK-LABEL: func.func @dynamic_batch
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         linalg.batch_matmul
// CHECK:         linalg.softmax
// CHECK:         linalg.batch_matmul
func.func @dynamic_batch(%q: tensor<?x2x16x8xf32>, %k: tensor<?x2x16x8xf32>, %v: tensor<?x2x16x8xf32>) -> tensor<?x2x16x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %b = tensor.dim %q, %c0 : tensor<?x2x16x8xf32>
  %ekt = tensor.empty(%b) : tensor<?x2x8x16xf32>
  %kt = linalg.transpose ins(%k : tensor<?x2x16x8xf32>) outs(%ekt : tensor<?x2x8x16xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<?x2x16x8xf32> into tensor<?x16x8xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<?x2x8x16xf32> into tensor<?x8x16xf32>
  %g = tensor.dim %qc, %c0 : tensor<?x16x8xf32>
  %es = tensor.empty(%g) : tensor<?x16x16xf32>
  %zs = linalg.fill ins(%cst : f32) outs(%es : tensor<?x16x16xf32>) -> tensor<?x16x16xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<?x16x8xf32>, tensor<?x8x16xf32>) outs(%zs : tensor<?x16x16xf32>) -> tensor<?x16x16xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [%b, 2, 16, 16] : tensor<?x16x16xf32> into tensor<?x2x16x16xf32>
  %e4 = tensor.empty(%b) : tensor<?x2x16x16xf32>
  %p = linalg.softmax dimension(3) ins(%s4 : tensor<?x2x16x16xf32>) outs(%e4 : tensor<?x2x16x16xf32>) -> tensor<?x2x16x16xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<?x2x16x16xf32> into tensor<?x16x16xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<?x2x16x8xf32> into tensor<?x16x8xf32>
  %eo = tensor.empty(%g) : tensor<?x16x8xf32>
  %zo = linalg.fill ins(%cst : f32) outs(%eo : tensor<?x16x8xf32>) -> tensor<?x16x8xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<?x16x16xf32>, tensor<?x16x8xf32>) outs(%zo : tensor<?x16x8xf32>) -> tensor<?x16x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [%b, 2, 16, 8] : tensor<?x16x8xf32> into tensor<?x2x16x8xf32>
  return %o4 : tensor<?x2x16x8xf32>
}

// -----

// A constant mask that is causal (0 at and below the diagonal, -1e4 past it, GPT-2's): the
// attention reads it computed from its indices, select(k2 > m, -1e4, 0), which
// ldsopt-attention reads as causal; the constant is no longer read.
// CHECK-LABEL: func.func @causal_constant_mask
// CHECK-NOT:     arith.constant dense
// CHECK:         %[[PAST:.+]] = arith.constant -1.000000e+04 : f32
// CHECK:         %[[MASK:.+]] = linalg.generic
// CHECK-SAME:      ldsopt.causal_mask = 0
// CHECK-NEXT:    ^bb0(%{{.+}}: f32):
// CHECK-NEXT:      %[[I:.+]] = linalg.index 0 : index
// CHECK-NEXT:      %[[J:.+]] = linalg.index 1 : index
// CHECK-NEXT:      %[[C:.+]] = arith.cmpi ugt, %[[J]], %[[I]] : index
// CHECK-NEXT:      %[[M:.+]] = arith.select %[[C]], %[[PAST]], %{{.+}} : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK:         iree_linalg_ext.attention
// CHECK-SAME:      ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[MASK]] :
func.func @causal_constant_mask(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %mask = arith.constant dense<[[0.000000e+00, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04], [0.000000e+00, 0.000000e+00, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04], [0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+04, -1.000000e+04, -1.000000e+04], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+04, -1.000000e+04], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+04], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<8x8xf32>
  %et = tensor.empty() : tensor<4x16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<4x8x16xf32>) outs(%et : tensor<4x16x8xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<4x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %a = arith.addf %in, %in_0 : f32
    linalg.yield %a : f32
  } -> tensor<4x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%l : tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %e2 = tensor.empty() : tensor<4x8x16xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%z2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// Kept as a constant: -100 past the diagonal is not -inf to a softmax (only masks of -1e4 or
// less are read as causal).
// CHECK-LABEL: func.func @mask_not_negligible
// CHECK:         %[[MASK:.+]] = arith.constant dense
// CHECK-NOT:     linalg.index
// CHECK:         iree_linalg_ext.attention
// CHECK-SAME:      ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[MASK]] :
func.func @mask_not_negligible(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %mask = arith.constant dense<[[0.000000e+00, -1.000000e+02, -1.000000e+02, -1.000000e+02, -1.000000e+02, -1.000000e+02, -1.000000e+02, -1.000000e+02], [0.000000e+00, 0.000000e+00, -1.000000e+02, -1.000000e+02, -1.000000e+02, -1.000000e+02, -1.000000e+02, -1.000000e+02], [0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+02, -1.000000e+02, -1.000000e+02, -1.000000e+02, -1.000000e+02], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+02, -1.000000e+02, -1.000000e+02, -1.000000e+02], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+02, -1.000000e+02, -1.000000e+02], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+02, -1.000000e+02], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+02], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<8x8xf32>
  %et = tensor.empty() : tensor<4x16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<4x8x16xf32>) outs(%et : tensor<4x16x8xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<4x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %a = arith.addf %in, %in_0 : f32
    linalg.yield %a : f32
  } -> tensor<4x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%l : tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %e2 = tensor.empty() : tensor<4x8x16xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%z2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// Kept as a constant: one entry on the diagonal is not 0.
// CHECK-LABEL: func.func @mask_not_causal
// CHECK:         %[[MASK:.+]] = arith.constant dense
// CHECK-NOT:     linalg.index
// CHECK:         iree_linalg_ext.attention
// CHECK-SAME:      ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[MASK]] :
func.func @mask_not_causal(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %mask = arith.constant dense<[[0.000000e+00, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04], [0.000000e+00, 0.000000e+00, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04], [0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04], [0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+00, -1.000000e+04, -1.000000e+04, -1.000000e+04, -1.000000e+04], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+04, -1.000000e+04, -1.000000e+04], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+04, -1.000000e+04], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, -1.000000e+04], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<8x8xf32>
  %et = tensor.empty() : tensor<4x16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<4x8x16xf32>) outs(%et : tensor<4x16x8xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<4x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%z : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<4x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<4x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %a = arith.addf %in, %in_0 : f32
    linalg.yield %a : f32
  } -> tensor<4x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%l : tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %e2 = tensor.empty() : tensor<4x8x16xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%z2 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}
