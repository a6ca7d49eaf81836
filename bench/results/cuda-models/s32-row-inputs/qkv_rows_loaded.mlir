// The folded QKV product's consumer with its row values loaded instead of summed in the K
// loop: x @ W' then y = R * (acc - mean * c) + d, R and mean read per row from [512] f32
// inputs (what a norm's statistics made by the product before would give it), f16 out.
func.func @main(%x: tensor<512x768xf16>, %w: tensor<768x2304xf16>, %mean: tensor<512xf32>, %r: tensor<512xf32>,
                %cv: tensor<2304xf32>, %dv: tensor<2304xf32>) -> tensor<512x2304xf16> {
  %zero = arith.constant 0.0 : f32
  %eacc = tensor.empty() : tensor<512x2304xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<512x2304xf32>) -> tensor<512x2304xf32>
  %eo = tensor.empty() : tensor<512x2304xf16>
  %mm = linalg.matmul ins(%x, %w : tensor<512x768xf16>, tensor<768x2304xf16>) outs(%facc : tensor<512x2304xf32>) -> tensor<512x2304xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %mean, %r, %cv, %dv : tensor<512x2304xf32>, tensor<512xf32>, tensor<512xf32>, tensor<2304xf32>, tensor<2304xf32>) outs(%eo : tensor<512x2304xf16>) {
  ^bb0(%acc: f32, %mu: f32, %rs: f32, %c: f32, %dd: f32, %o: f16):
    %mc = arith.mulf %mu, %c : f32
    %tt = arith.subf %acc, %mc : f32
    %u = arith.mulf %rs, %tt : f32
    %v = arith.addf %u, %dd : f32
    %h = arith.truncf %v : f32 to f16
    linalg.yield %h : f16
  } -> tensor<512x2304xf16>
  return %y : tensor<512x2304xf16>
}
