// 70000 outputs: more tiles than the 65535 workgroups (grid-stride).
func.func @main(%x0: tensor<70000x4xf32>) -> tensor<70000xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<70000xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<70000xf32>) -> tensor<70000xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<70000x4xf32>) outs(%f : tensor<70000xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.addf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<70000xf32>
  return %r : tensor<70000xf32>
}
