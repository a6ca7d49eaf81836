// K^T over a dynamic sequence, as eager attention reads keys: a ?x32 tensor written 32x?,
// scaled by a per-channel vector (one input transposed against the output's fastest dim).
#in = affine_map<(d0, d1) -> (d1, d0)>
#c = affine_map<(d0, d1) -> (d0)>
#out = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%k: tensor<?x32xf32>, %s: tensor<32xf32>) -> tensor<32x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %k, %c0 : tensor<?x32xf32>
  %e = tensor.empty(%n) : tensor<32x?xf32>
  %y = linalg.generic {indexing_maps = [#in, #c, #out], iterator_types = ["parallel", "parallel"]}
      ins(%k, %s : tensor<?x32xf32>, tensor<32xf32>) outs(%e : tensor<32x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<32x?xf32>
  return %y : tensor<32x?xf32>
}
