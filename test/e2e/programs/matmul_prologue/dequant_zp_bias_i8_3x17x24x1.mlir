// batch 3, K = 1: i8 weights dequantized with a per-channel zero point and scale ((q - z) * s),
// then a bias (over n) and truncf to f16 after the batch matmul.
func.func @main(%a: tensor<3x17x1xf32>, %w: tensor<3x1x24xi8>, %zp: tensor<24xf32>, %s: tensor<24xf32>, %bias: tensor<24xf32>) -> tensor<3x17x24xf16> {
  %zero = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<3x1x24xf32>
  %wf = linalg.generic {indexing_maps = [affine_map<(b, k, n) -> (b, k, n)>, affine_map<(b, k, n) -> (n)>, affine_map<(b, k, n) -> (n)>, affine_map<(b, k, n) -> (b, k, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %zp, %s : tensor<3x1x24xi8>, tensor<24xf32>, tensor<24xf32>) outs(%ew : tensor<3x1x24xf32>) {
  ^bb0(%q: i8, %z0: f32, %c: f32, %o: f32):
    %qf = arith.sitofp %q : i8 to f32
    %d = arith.subf %qf, %z0 : f32
    %y = arith.mulf %d, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x1x24xf32>
  %e = tensor.empty() : tensor<3x17x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x17x24xf32>) -> tensor<3x17x24xf32>
  %mm = linalg.batch_matmul ins(%a, %wf : tensor<3x17x1xf32>, tensor<3x1x24xf32>) outs(%z : tensor<3x17x24xf32>) -> tensor<3x17x24xf32>
  %e16 = tensor.empty() : tensor<3x17x24xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<3x17x24xf32>, tensor<24xf32>) outs(%e16 : tensor<3x17x24xf16>) {
  ^bb0(%x: f32, %c: f32, %o: f16):
    %y = arith.addf %x, %c : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<3x17x24xf16>
  return %r : tensor<3x17x24xf16>
}
