// NN f32: three rows: all but three rows of the tile guarded.
func.func @main(%a: tensor<3x64xf32>, %b: tensor<64x100xf32>) -> tensor<3x100xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x100xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<3x100xf32>) -> tensor<3x100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3x64xf32>, tensor<64x100xf32>) outs(%f : tensor<3x100xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x100xf32>
  return %r : tensor<3x100xf32>
}
