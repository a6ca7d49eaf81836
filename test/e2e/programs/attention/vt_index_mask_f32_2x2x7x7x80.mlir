// V held with its keys innermost ([B, H, D, S], as IREE forms a PyTorch BERT's V where it moves
// the head transpose into V's producer) and a mask of indices alone computed in the dispatch
// (keys up to 2 past the query row), head dim 80, 7 tokens, 2 heads.
func.func @main(%q: tensor<2x2x7x80xf32>, %k: tensor<2x2x7x80xf32>, %v: tensor<2x2x80x7xf32>) -> tensor<2x7x2x80xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c2 = arith.constant 2 : index
  %me = tensor.empty() : tensor<2x2x7x7xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%me : tensor<2x2x7x7xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 2 : index
      %j = linalg.index 3 : index
      %i2 = arith.addi %i, %c2 : index
      %keep = arith.cmpi sle, %j, %i2 : index
      %y = arith.select %keep, %zero, %ninf : f32
      linalg.yield %y : f32
  } -> tensor<2x2x7x7xf32>
  %scale = arith.constant 0.111803 : f32
  %e = tensor.empty() : tensor<2x2x7x80xf32>
  %a = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, n, k2)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k2)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale, %mask : tensor<2x2x7x80xf32>, tensor<2x2x7x80xf32>, tensor<2x2x80x7xf32>, f32, tensor<2x2x7x7xf32>)
      outs(%e : tensor<2x2x7x80xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<2x2x7x80xf32>
  %te = tensor.empty() : tensor<2x7x2x80xf32>
  %t = linalg.transpose ins(%a : tensor<2x2x7x80xf32>) outs(%te : tensor<2x7x2x80xf32>) permutation = [0, 2, 1, 3]
  return %t : tensor<2x7x2x80xf32>
}
