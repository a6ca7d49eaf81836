// A matmul of a dynamic M that accumulates into a loaded init (an argument, not a fill) and
// adds a residual of the output's dynamic shape: A stored [k, m], N and K (33, 17) odd.
func.func @main(%x: tensor<17x?xf32>, %w: tensor<17x33xf32>, %init: tensor<?x33xf32>, %res: tensor<?x33xf32>) -> tensor<?x33xf32> {
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c1 : tensor<17x?xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<17x?xf32>, tensor<17x33xf32>) outs(%init : tensor<?x33xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x33xf32>
  %e1 = tensor.empty(%m) : tensor<?x33xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %res : tensor<?x33xf32>, tensor<?x33xf32>) outs(%e1 : tensor<?x33xf32>) {
  ^bb0(%v: f32, %z: f32, %oo: f32):
    %r = arith.addf %v, %z : f32
    linalg.yield %r : f32
  } -> tensor<?x33xf32>
  return %y : tensor<?x33xf32>
}
