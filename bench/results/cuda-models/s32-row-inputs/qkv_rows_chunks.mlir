// GPT-2's QKV product (512x2304x768 f16) folded after a norm whose statistics come per chunk
// of 64 columns (made here by a dispatch before it): the consumer's row values combined from
// the 12 chunks before the K loop (ldsopt/matmul/row_stats.py's loaded row values).
func.func @main(%x: tensor<512x768xf16>, %w: tensor<768x2304xf16>, %cv: tensor<2304xf32>, %dv: tensor<2304xf32>) -> tensor<512x2304xf16> {
  %zero = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<512x12xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<512x12xf32>) -> tensor<512x12xf32>
  %x3 = tensor.expand_shape %x [[0], [1, 2]] output_shape [512, 12, 64] : tensor<512x768xf16> into tensor<512x12x64xf16>
  %t:2 = linalg.generic {indexing_maps = [affine_map<(m, c, w) -> (m, c, w)>, affine_map<(m, c, w) -> (m, c, 0)>, affine_map<(m, c, w) -> (m, c)>, affine_map<(m, c, w) -> (m, c)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x3, %x3 : tensor<512x12x64xf16>, tensor<512x12x64xf16>) outs(%fc, %fc : tensor<512x12xf32>, tensor<512x12xf32>) {
  ^bb0(%v: f16, %v0: f16, %s1: f32, %s2: f32):
    %a = arith.extf %v : f16 to f32
    %a0 = arith.extf %v0 : f16 to f32
    %d = arith.subf %a, %a0 : f32
    %n1 = arith.addf %s1, %d : f32
    %sq = arith.mulf %d, %d : f32
    %n2 = arith.addf %s2, %sq : f32
    linalg.yield %n1, %n2 : f32, f32
  } -> (tensor<512x12xf32>, tensor<512x12xf32>)
  %e1 = tensor.empty() : tensor<512xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512xf32>) -> tensor<512xf32>
  %eacc = tensor.empty() : tensor<512x2304xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<512x2304xf32>) -> tensor<512x2304xf32>
  %eo = tensor.empty() : tensor<512x2304xf16>
  %res = flow.dispatch.region -> (tensor<512x2304xf16>) {
    // sum(x), sum(x - x0), sum((x - x0)^2) from the chunks: with d = h0 - x0 a chunk adds
    // t1 + 8 h0, t1 + 8 d and t2 + 2 d t1 + 8 d^2.
    %s:3 = linalg.generic {indexing_maps = [affine_map<(m, c) -> (m, c)>, affine_map<(m, c) -> (m, c)>, affine_map<(m, c) -> (m, c * 64)>, affine_map<(m, c) -> (m, 0)>, affine_map<(m, c) -> (m)>, affine_map<(m, c) -> (m)>, affine_map<(m, c) -> (m)>], iterator_types = ["parallel", "reduction"]}
        ins(%t#0, %t#1, %x, %x : tensor<512x12xf32>, tensor<512x12xf32>, tensor<512x768xf16>, tensor<512x768xf16>) outs(%f1, %f1, %f1 : tensor<512xf32>, tensor<512xf32>, tensor<512xf32>) {
    ^bb0(%t1: f32, %t2: f32, %h0: f16, %x0: f16, %s0: f32, %s1: f32, %s2: f32):
      %w8 = arith.constant 64.0 : f32
      %two = arith.constant 2.0 : f32
      %a = arith.extf %h0 : f16 to f32
      %a0 = arith.extf %x0 : f16 to f32
      %d = arith.subf %a, %a0 : f32
      %wa = arith.mulf %w8, %a : f32
      %c0 = arith.addf %t1, %wa : f32
      %n0 = arith.addf %s0, %c0 : f32
      %wd = arith.mulf %w8, %d : f32
      %c1 = arith.addf %t1, %wd : f32
      %n1 = arith.addf %s1, %c1 : f32
      %dt = arith.mulf %d, %t1 : f32
      %dt2 = arith.mulf %two, %dt : f32
      %wdd = arith.mulf %wd, %d : f32
      %c2a = arith.addf %t2, %dt2 : f32
      %c2 = arith.addf %c2a, %wdd : f32
      %n2 = arith.addf %s2, %c2 : f32
      linalg.yield %n0, %n1, %n2 : f32, f32, f32
    } -> (tensor<512xf32>, tensor<512xf32>, tensor<512xf32>)
    %mm = linalg.matmul ins(%x, %w : tensor<512x768xf16>, tensor<768x2304xf16>) outs(%facc : tensor<512x2304xf32>) -> tensor<512x2304xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %s#0, %s#1, %s#2, %cv, %dv : tensor<512x2304xf32>, tensor<512xf32>, tensor<512xf32>, tensor<512xf32>, tensor<2304xf32>, tensor<2304xf32>) outs(%eo : tensor<512x2304xf16>) {
    ^bb0(%acc: f32, %r0: f32, %r1: f32, %r2: f32, %c: f32, %dd: f32, %o: f16):
      %kk = arith.constant 768.0 : f32
      %mu = arith.divf %r0, %kk : f32
      %m1 = arith.divf %r1, %kk : f32
      %m2 = arith.divf %r2, %kk : f32
      %m1s = arith.mulf %m1, %m1 : f32
      %var = arith.subf %m2, %m1s : f32
      %eps = arith.constant 1.0e-5 : f32
      %ve = arith.addf %var, %eps : f32
      %rs = math.rsqrt %ve : f32
      %mc = arith.mulf %mu, %c : f32
      %tt = arith.subf %acc, %mc : f32
      %u = arith.mulf %rs, %tt : f32
      %y = arith.addf %u, %dd : f32
      %h = arith.truncf %y : f32 to f16
      linalg.yield %h : f16
    } -> tensor<512x2304xf16>
    flow.return %y : tensor<512x2304xf16>
  }
  return %res : tensor<512x2304xf16>
}
