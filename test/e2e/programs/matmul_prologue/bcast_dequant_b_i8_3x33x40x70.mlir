// batch 3 with one B for every batch: i8 weights (k, n) dequantized by a per-channel scale and
// broadcast to (b, k, n) in one generic that IREE fuses into the batch matmul's dispatch (a
// plain broadcast it folds into a matmul of M = 3 x 33 instead). The scale is the generic's
// first input, the weights its second.
func.func @main(%a: tensor<3x33x70xf32>, %w: tensor<70x40xi8>, %s: tensor<40xf32>) -> tensor<3x33x40xf32> {
  %zero = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<3x70x40xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(b, k, n) -> (n)>, affine_map<(b, k, n) -> (k, n)>, affine_map<(b, k, n) -> (b, k, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %w : tensor<40xf32>, tensor<70x40xi8>) outs(%eb : tensor<3x70x40xf32>) {
  ^bb0(%c: f32, %q: i8, %o: f32):
    %qf = arith.sitofp %q : i8 to f32
    %y = arith.mulf %c, %qf : f32
    linalg.yield %y : f32
  } -> tensor<3x70x40xf32>
  %e = tensor.empty() : tensor<3x33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<3x33x70xf32>, tensor<3x70x40xf32>) outs(%z : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  return %mm : tensor<3x33x40xf32>
}
