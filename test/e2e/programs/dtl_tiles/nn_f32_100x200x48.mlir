// NN f32 for a 96x96 tile (tiles=96x96x3x4: 768 threads): B's rows of 96 split by a magic division.
func.func @main(%a: tensor<100x48xf32>, %b: tensor<48x200xf32>) -> tensor<100x200xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x200xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<100x200xf32>) -> tensor<100x200xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<100x48xf32>, tensor<48x200xf32>) outs(%f : tensor<100x200xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<100x200xf32>
  return %r : tensor<100x200xf32>
}
