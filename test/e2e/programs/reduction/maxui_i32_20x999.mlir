// Unsigned max.
func.func @main(%x0: tensor<20x999xi32>) -> tensor<20xi32> {
  %cst = arith.constant 0 : i32
  %e = tensor.empty() : tensor<20xi32>
  %f = linalg.fill ins(%cst : i32) outs(%e : tensor<20xi32>) -> tensor<20xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x0 : tensor<20x999xi32>) outs(%f : tensor<20xi32>) {
  ^bb0(%in0: i32, %out: i32):
    %s = arith.maxui %in0, %out : i32
    linalg.yield %s : i32
  } -> tensor<20xi32>
  return %r : tensor<20xi32>
}
