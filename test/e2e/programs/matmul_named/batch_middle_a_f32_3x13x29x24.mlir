// einsum("mbk,bkn->bmn"): the batch dim of A is its middle one.
func.func @main(%a: tensor<13x3x24xf32>, %b: tensor<3x24x29xf32>) -> tensor<3x13x29xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x13x29xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<3x13x29xf32>) -> tensor<3x13x29xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, b, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<13x3x24xf32>, tensor<3x24x29xf32>) outs(%f : tensor<3x13x29xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x13x29xf32>
  return %r : tensor<3x13x29xf32>
}
