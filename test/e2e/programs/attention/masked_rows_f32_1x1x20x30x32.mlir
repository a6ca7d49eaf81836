// Rows 5 and on masked entirely by the region: NaN, as IREE gives.
func.func @main(%q: tensor<1x1x20x32xf32>, %k: tensor<1x1x30x32xf32>, %v: tensor<1x1x30x32xf32>) -> tensor<1x1x20x32xf32> {
  %scale = arith.constant 0.176777 : f32
  %e = tensor.empty() : tensor<1x1x20x32xf32>
  %o = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale : tensor<1x1x20x32xf32>, tensor<1x1x30x32xf32>, tensor<1x1x30x32xf32>, f32)
      outs(%e : tensor<1x1x20x32xf32>) {
    ^bb0(%s: f32):
      %i = iree_linalg_ext.index 2 : index
      %c5 = arith.constant 5 : index
      %c = arith.cmpi uge, %i, %c5 : index
      %ninf = arith.constant 0xFF800000 : f32
      %r = arith.select %c, %ninf, %s : f32
      iree_linalg_ext.yield %r : f32
  } -> tensor<1x1x20x32xf32>
  return %o : tensor<1x1x20x32xf32>
}
