// PyTorch's packed-QKV self-attention as IREE forms it: Q, K and V slices of one [3, B, H, S, D]
// tensor, an additive mask (1 - m) * c broadcast from a [B, S] input (c = -2 here, not
// -inf or the type's min: the random inputs would make every softmax one-hot), the output in
// [B, S, H, D] order; 3 heads of 32, 13 tokens.
func.func @main(%qkv: tensor<3x2x3x13x32xf32>, %m: tensor<2x13xf32>) -> tensor<2x13x3x32xf32> {
  %q = tensor.extract_slice %qkv[0, 0, 0, 0, 0] [1, 2, 3, 13, 32] [1, 1, 1, 1, 1] : tensor<3x2x3x13x32xf32> to tensor<2x3x13x32xf32>
  %k = tensor.extract_slice %qkv[1, 0, 0, 0, 0] [1, 2, 3, 13, 32] [1, 1, 1, 1, 1] : tensor<3x2x3x13x32xf32> to tensor<2x3x13x32xf32>
  %v = tensor.extract_slice %qkv[2, 0, 0, 0, 0] [1, 2, 3, 13, 32] [1, 1, 1, 1, 1] : tensor<3x2x3x13x32xf32> to tensor<2x3x13x32xf32>
  %one = arith.constant 1.0 : f32
  %min = arith.constant -2.0 : f32
  %me = tensor.empty() : tensor<2x3x13x13xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%m : tensor<2x13xf32>) outs(%me : tensor<2x3x13x13xf32>) {
    ^bb0(%x: f32, %o: f32):
      %d = arith.subf %one, %x : f32
      %y = arith.mulf %d, %min : f32
      linalg.yield %y : f32
  } -> tensor<2x3x13x13xf32>
  %scale = arith.constant 0.176776695 : f32
  %e = tensor.empty() : tensor<2x3x13x32xf32>
  %a = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k2)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale, %mask : tensor<2x3x13x32xf32>, tensor<2x3x13x32xf32>, tensor<2x3x13x32xf32>, f32, tensor<2x3x13x13xf32>)
      outs(%e : tensor<2x3x13x32xf32>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<2x3x13x32xf32>
  %te = tensor.empty() : tensor<2x13x3x32xf32>
  %t = linalg.transpose ins(%a : tensor<2x3x13x32xf32>) outs(%te : tensor<2x13x3x32xf32>) permutation = [0, 2, 1, 3]
  return %t : tensor<2x13x3x32xf32>
}
