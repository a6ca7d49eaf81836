func.func @main(%x: tensor<512x768xf16>, %w: tensor<768x3072xf16>, %cv: tensor<3072xf32>, %dv: tensor<3072xf32>, %b: tensor<3072xf16>) -> tensor<512x3072xf16> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<512xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512xf32>) -> tensor<512xf32>
  %eacc = tensor.empty() : tensor<512x3072xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<512x3072xf32>) -> tensor<512x3072xf32>
  %eo = tensor.empty() : tensor<512x3072xf16>
  %res = flow.dispatch.region -> (tensor<512x3072xf16>) {
    %s:3 = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, 0)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (m)>], iterator_types = ["parallel", "reduction"]}
        ins(%x, %x : tensor<512x768xf16>, tensor<512x768xf16>) outs(%f1, %f1, %f1 : tensor<512xf32>, tensor<512xf32>, tensor<512xf32>) {
    ^bb0(%v: f16, %v0: f16, %s0: f32, %s1: f32, %s2: f32):
      %a = arith.extf %v : f16 to f32
      %a0 = arith.extf %v0 : f16 to f32
      %d = arith.subf %a, %a0 : f32
      %n0 = arith.addf %s0, %a : f32
      %n1 = arith.addf %s1, %d : f32
      %sq = arith.mulf %d, %d : f32
      %n2 = arith.addf %s2, %sq : f32
      linalg.yield %n0, %n1, %n2 : f32, f32, f32
    } -> (tensor<512xf32>, tensor<512xf32>, tensor<512xf32>)
    %rows:2 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>, affine_map<(m) -> (m)>, affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
        ins(%s#0, %s#1, %s#2 : tensor<512xf32>, tensor<512xf32>, tensor<512xf32>) outs(%e1, %e1 : tensor<512xf32>, tensor<512xf32>) {
    ^bb0(%r0: f32, %r1: f32, %r2: f32, %o0: f32, %o1: f32):
      %kk = arith.constant 768.0 : f32
      %mu = arith.divf %r0, %kk : f32
      %m1 = arith.divf %r1, %kk : f32
      %m2 = arith.divf %r2, %kk : f32
      %m1s = arith.mulf %m1, %m1 : f32
      %var = arith.subf %m2, %m1s : f32
      %eps = arith.constant 1.0e-5 : f32
      %ve = arith.addf %var, %eps : f32
      %rs = math.rsqrt %ve : f32
      linalg.yield %mu, %rs : f32, f32
    } -> (tensor<512xf32>, tensor<512xf32>)
    %mm = linalg.matmul ins(%x, %w : tensor<512x768xf16>, tensor<768x3072xf16>) outs(%facc : tensor<512x3072xf32>) -> tensor<512x3072xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %rows#0, %rows#1, %cv, %dv, %b : tensor<512x3072xf32>, tensor<512xf32>, tensor<512xf32>, tensor<3072xf32>, tensor<3072xf32>, tensor<3072xf16>) outs(%eo : tensor<512x3072xf16>) {
    ^bb0(%acc: f32, %mu: f32, %rs: f32, %c: f32, %dd: f32, %bb: f16, %o: f16):
      %mc = arith.mulf %mu, %c : f32
      %tt = arith.subf %acc, %mc : f32
      %u = arith.mulf %rs, %tt : f32
      %y0 = arith.addf %u, %dd : f32
      %bf = arith.extf %bb : f16 to f32
      %y = arith.addf %y0, %bf : f32
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %cc = arith.constant 0.7978845608 : f32
      %c3 = arith.constant 0.044715 : f32
      %y2 = arith.mulf %y, %y : f32
      %y3 = arith.mulf %y2, %y : f32
      %t3 = arith.mulf %c3, %y3 : f32
      %in = arith.addf %y, %t3 : f32
      %sc = arith.mulf %cc, %in : f32
      %th = math.tanh %sc : f32
      %op = arith.addf %one, %th : f32
      %hy = arith.mulf %half, %y : f32
      %g = arith.mulf %hy, %op : f32
      %h = arith.truncf %g : f32 to f16
      linalg.yield %h : f16
    } -> tensor<512x3072xf16>
    flow.return %y : tensor<512x3072xf16>
  }
  return %res : tensor<512x3072xf16>
}
