// Two inputs: row-wise dot products (x*y summed).
func.func @main(%x0: tensor<32x777xf32>, %x1: tensor<32x777xf32>) -> tensor<32xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0, %x1 : tensor<32x777xf32>, tensor<32x777xf32>) outs(%f : tensor<32xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %m = arith.mulf %in0, %in1 : f32
    %s = arith.addf %m, %out : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %r : tensor<32xf32>
}
