// f16 rows accumulated in f32: the extf stays in the first reduction, partials are f32.
func.func @main(%x0: tensor<4x131072xf16>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<4x131072xf16>) outs(%f : tensor<4xf32>) {
  ^bb0(%in0: f16, %out: f32):
    %x = arith.extf %in0 : f16 to f32
    %s = arith.addf %x, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
