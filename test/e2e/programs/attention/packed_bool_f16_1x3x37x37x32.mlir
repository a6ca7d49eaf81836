// Packed QKV (slices of one [3, B, H, S, D] tensor), f16, with a boolean padding mask m > 0
// broadcast from a [B, S] input, the output in [B, S, H, D] order; 37 tokens (more than 16
// rows: the matrix-core kernels on CUDA and gfx942), 3 heads of 32.
func.func @main(%qkv: tensor<3x1x3x37x32xf16>, %m: tensor<1x37xf32>) -> tensor<1x37x3x32xf16> {
  %q = tensor.extract_slice %qkv[0, 0, 0, 0, 0] [1, 1, 3, 37, 32] [1, 1, 1, 1, 1] : tensor<3x1x3x37x32xf16> to tensor<1x3x37x32xf16>
  %k = tensor.extract_slice %qkv[1, 0, 0, 0, 0] [1, 1, 3, 37, 32] [1, 1, 1, 1, 1] : tensor<3x1x3x37x32xf16> to tensor<1x3x37x32xf16>
  %v = tensor.extract_slice %qkv[2, 0, 0, 0, 0] [1, 1, 3, 37, 32] [1, 1, 1, 1, 1] : tensor<3x1x3x37x32xf16> to tensor<1x3x37x32xf16>
  %zero = arith.constant 0.0 : f32
  %me = tensor.empty() : tensor<1x3x37x37xi1>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%m : tensor<1x37xf32>) outs(%me : tensor<1x3x37x37xi1>) {
    ^bb0(%x: f32, %o: i1):
      %keep = arith.cmpf ogt, %x, %zero : f32
      linalg.yield %keep : i1
  } -> tensor<1x3x37x37xi1>
  %scale = arith.constant 0.176776695 : f16
  %e = tensor.empty() : tensor<1x3x37x32xf16>
  %a = iree_linalg_ext.attention <{indexing_maps = [
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, k1)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, k2, n)>,
      affine_map<(b, h, m, n, k1, k2) -> ()>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, k2)>,
      affine_map<(b, h, m, n, k1, k2) -> (b, h, m, n)>]}>
      ins(%q, %k, %v, %scale, %mask : tensor<1x3x37x32xf16>, tensor<1x3x37x32xf16>, tensor<1x3x37x32xf16>, f16, tensor<1x3x37x37xi1>)
      outs(%e : tensor<1x3x37x32xf16>) {
    ^bb0(%s: f32):
      iree_linalg_ext.yield %s : f32
  } -> tensor<1x3x37x32xf16>
  %te = tensor.empty() : tensor<1x37x3x32xf16>
  %t = linalg.transpose ins(%a : tensor<1x3x37x32xf16>) outs(%te : tensor<1x37x3x32xf16>) permutation = [0, 2, 1, 3]
  return %t : tensor<1x37x3x32xf16>
}
