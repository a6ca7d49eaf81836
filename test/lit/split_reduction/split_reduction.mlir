// RUN: lds-opt %s --split-input-file --pass-pipeline='builtin.module(ldsopt-split-reduction)' | filecheck %s

// A full sum of 2^26: one output, so S = target-outputs = 512 partials of 131072 each,
// the first reduction from the identity, the second into the original fill.
// CHECK-LABEL: func.func @sum_all
// CHECK-SAME:    (%[[X:.+]]: tensor<67108864xf32>)
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<f32>)
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[X]]
// CHECK-SAME{LITERAL}: [[0, 1]] output_shape [512, 131072] : tensor<67108864xf32> into tensor<512x131072xf32>
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[PINIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<512xf32>)
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[E]] : tensor<512x131072xf32>) outs(%[[PINIT]] : tensor<512xf32>)
// CHECK:           arith.addf
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["reduction"]
// CHECK-SAME:      ins(%[[P]] : tensor<512xf32>) outs(%[[INIT]] : tensor<f32>)
// CHECK:           arith.addf
// CHECK:         return %[[R]]
func.func @sum_all(%x: tensor<67108864xf32>) -> tensor<f32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<67108864xf32>) outs(%f : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// 32 row sums of 2^20: S = 512 / 32 = 16, so 32 x 16 partials of 65536.
// CHECK-DAG:   #[[IN3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[OUT3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[IN2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[OUT2:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_sums
// CHECK:         tensor.expand_shape
// CHECK-SAME{LITERAL}: [[0], [1, 2]] output_shape [32, 16, 65536] : tensor<32x1048576xf32> into tensor<32x16x65536xf32>
// CHECK:         %[[P:.+]] = linalg.generic {indexing_maps = [#[[IN3]], #[[OUT3]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:      outs(%{{.+}} : tensor<32x16xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[IN2]], #[[OUT2]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:      ins(%[[P]] : tensor<32x16xf32>) outs(%{{.+}} : tensor<32xf32>)
func.func @row_sums(%x: tensor<32x1048576xf32>) -> tensor<32xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x1048576xf32>) outs(%f : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// -----

// f16 summed in f32: the extf stays in the first reduction, the partials are f32 and the
// second reduction is the addf alone, into the tensor passed in as the initial value.
// CHECK-LABEL: func.func @sum_f16_to_f32
// CHECK-SAME:    (%[[X:.+]]: tensor<32x1048576xf16>, %[[INIT:.+]]: tensor<32xf32>)
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[X]]
// CHECK-SAME:      into tensor<32x16x65536xf16>
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[E]] : tensor<32x16x65536xf16>) outs(%{{.+}} : tensor<32x16xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: f16, %[[OUT:.+]]: f32):
// CHECK-NEXT:      %[[W:.+]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[W]], %[[OUT]] fastmath<reassoc> : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[P]] : tensor<32x16xf32>) outs(%[[INIT]] : tensor<32xf32>)
// CHECK-NEXT:    ^bb0(%[[IN2:.+]]: f32, %[[OUT2:.+]]: f32):
// CHECK-NEXT:      %[[S2:.+]] = arith.addf %[[IN2]], %[[OUT2]] fastmath<reassoc> : f32
// CHECK-NEXT:      linalg.yield %[[S2]] : f32
func.func @sum_f16_to_f32(%x: tensor<32x1048576xf16>, %init: tensor<32xf32>) -> tensor<32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x1048576xf16>) outs(%init : tensor<32xf32>) {
  ^bb0(%in: f16, %out: f32):
    %w = arith.extf %in : f16 to f32
    %s = arith.addf %w, %out fastmath<reassoc> : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// -----

// Max over the middle dim (linalg.reduce, 8 outputs): the dim is split in place, S = 512 / 8
// capped so that chunks keep 4096 elements, and the partials start from -inf.
// CHECK-LABEL: func.func @max_middle
// CHECK:         tensor.expand_shape
// CHECK-SAME{LITERAL}: [[0], [1, 2], [3]] output_shape [4, 16, 4096, 2] : tensor<4x65536x2xf32> into tensor<4x16x4096x2xf32>
// CHECK:         %[[NEG:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         linalg.fill ins(%[[NEG]] : f32) outs(%{{.+}} : tensor<4x16x2xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK-SAME:      outs(%{{.+}} : tensor<4x16x2xf32>)
// CHECK:           arith.maximumf
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      outs(%{{.+}} : tensor<4x2xf32>)
// CHECK:           arith.maximumf
// CHECK-NOT:     linalg.reduce
func.func @max_middle(%x: tensor<4x65536x2xf32>) -> tensor<4x2xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %r = linalg.reduce ins(%x : tensor<4x65536x2xf32>) outs(%f : tensor<4x2xf32>) dimensions = [1]
    (%in: f32, %out: f32) {
      %m = arith.maximumf %in, %out : f32
      linalg.yield %m : f32
    }
  return %r : tensor<4x2xf32>
}

// -----

// Enough outputs already (8192 row sums): left alone.
// CHECK-LABEL: func.func @many_outputs
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.generic
func.func @many_outputs(%x: tensor<8192x8192xf32>) -> tensor<8192xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8192xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8192xf32>) -> tensor<8192xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8192x8192xf32>) outs(%f : tensor<8192xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8192xf32>
  return %r : tensor<8192xf32>
}

// -----

// A short reduced dim (4096 < min-reduced): left alone.
// CHECK-LABEL: func.func @short_reduction
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.generic
func.func @short_reduction(%x: tensor<4x4096xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4096xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A prime reduced extent (65537) has no divisor to split by: left alone.
// CHECK-LABEL: func.func @prime_extent
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.generic
func.func @prime_extent(%x: tensor<65537xi32>) -> tensor<i32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<i32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<65537xi32>) outs(%f : tensor<i32>) {
  ^bb0(%in: i32, %out: i32):
    %s = arith.addi %in, %out : i32
    linalg.yield %s : i32
  } -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// Two reduced dims: not this pass's shape (one reduced dim), left alone.
// CHECK-LABEL: func.func @two_reduced_dims
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.generic
func.func @two_reduced_dims(%x: tensor<256x65536xf32>) -> tensor<f32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<256x65536xf32>) outs(%f : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// A reduction carrying a lowering_config keeps the lowering the user chose: left alone.
// CHECK-LABEL: func.func @user_config
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic
// CHECK-SAME:      lowering_config
// CHECK-NOT:     linalg.generic
func.func @user_config(%x: tensor<1048576xf32>) -> tensor<f32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"],
                       lowering_config = #iree_gpu.lowering_config<{reduction = [4096]}>}
      ins(%x : tensor<1048576xf32>) outs(%f : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
