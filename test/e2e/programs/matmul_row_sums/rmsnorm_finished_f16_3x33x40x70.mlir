// RMSNorm folded into a batch product, its rows' scale finished from the sum of squares in a
// generic over (b, m): batch 3, ragged M, N and K.
func.func @main(%x: tensor<3x33x70xf16>, %w: tensor<3x70x40xf16>, %cv: tensor<40xf32>, %dv: tensor<40xf32>) -> tensor<3x33x40xf16> {
  %zero = arith.constant 0.0 : f32
  %zf = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<3x33xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3x33xf32>) -> tensor<3x33xf32>
  %eacc = tensor.empty() : tensor<3x33x40xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
  %eo = tensor.empty() : tensor<3x33x40xf16>
  %res = flow.dispatch.region -> (tensor<3x33x40xf16>) {
    %s = linalg.generic {indexing_maps = [affine_map<(b, m, k) -> (b, m, k)>, affine_map<(b, m, k) -> (b, m)>], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x : tensor<3x33x70xf16>) outs(%f1 : tensor<3x33xf32>) {
    ^bb0(%v: f16, %s0: f32):
      %a = arith.extf %v : f16 to f32
      %sq = arith.mulf %a, %a : f32
      %n0 = arith.addf %s0, %sq : f32
      linalg.yield %n0 : f32
    } -> (tensor<3x33xf32>)
    %rs = linalg.generic {indexing_maps = [affine_map<(b, m) -> (b, m)>, affine_map<(b, m) -> (b, m)>], iterator_types = ["parallel", "parallel"]}
        ins(%s : tensor<3x33xf32>) outs(%e1 : tensor<3x33xf32>) {
    ^bb0(%r0: f32, %o0: f32):
      %kk = arith.constant 70.0 : f32
      %m2 = arith.divf %r0, %kk : f32
      %eps = arith.constant 1.0e-6 : f32
      %ve = arith.addf %m2, %eps : f32
      %r = math.rsqrt %ve : f32
      linalg.yield %r : f32
    } -> tensor<3x33xf32>
    %mm = linalg.batch_matmul ins(%x, %w : tensor<3x33x70xf16>, tensor<3x70x40xf16>) outs(%facc : tensor<3x33x40xf32>) -> tensor<3x33x40xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m)>, affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%mm, %rs, %cv, %dv : tensor<3x33x40xf32>, tensor<3x33xf32>, tensor<40xf32>, tensor<40xf32>) outs(%eo : tensor<3x33x40xf16>) {
    ^bb0(%acc: f32, %r: f32, %c: f32, %dd: f32, %o: f16):
      %u = arith.mulf %r, %acc : f32
      %y = arith.addf %u, %dd : f32
      %h = arith.truncf %y : f32 to f16
      linalg.yield %h : f16
    } -> tensor<3x33x40xf16>
    flow.return %y : tensor<3x33x40xf16>
  }
  return %res : tensor<3x33x40xf16>
}
