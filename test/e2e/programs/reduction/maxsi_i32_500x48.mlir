// Signed max over the outer dim.
func.func @main(%x0: tensor<500x48xi32>) -> tensor<48xi32> {
  %cst = arith.constant -2147483648 : i32
  %e = tensor.empty() : tensor<48xi32>
  %f = linalg.fill ins(%cst : i32) outs(%e : tensor<48xi32>) -> tensor<48xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%x0 : tensor<500x48xi32>) outs(%f : tensor<48xi32>) {
  ^bb0(%in0: i32, %out: i32):
    %s = arith.maxsi %in0, %out : i32
    linalg.yield %s : i32
  } -> tensor<48xi32>
  return %r : tensor<48xi32>
}
