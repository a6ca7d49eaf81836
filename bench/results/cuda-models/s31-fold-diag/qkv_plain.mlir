// The unfolded QKV product of the fold's diag: x @ W + b, f16 out.
func.func @main(%x: tensor<512x768xf16>, %w: tensor<768x2304xf16>, %b: tensor<2304xf32>) -> tensor<512x2304xf16> {
  %zero = arith.constant 0.0 : f32
  %eacc = tensor.empty() : tensor<512x2304xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<512x2304xf32>) -> tensor<512x2304xf32>
  %eo = tensor.empty() : tensor<512x2304xf16>
  %mm = linalg.matmul ins(%x, %w : tensor<512x768xf16>, tensor<768x2304xf16>) outs(%facc : tensor<512x2304xf32>) -> tensor<512x2304xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<512x2304xf32>, tensor<2304xf32>) outs(%eo : tensor<512x2304xf16>) {
  ^bb0(%acc: f32, %bb: f32, %o: f16):
    %s = arith.addf %acc, %bb : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  } -> tensor<512x2304xf16>
  return %y : tensor<512x2304xf16>
}
