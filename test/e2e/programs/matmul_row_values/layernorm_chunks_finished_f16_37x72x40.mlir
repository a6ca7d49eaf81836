// LayerNorm folded into the product with its statistics made before it (per chunk of 8 columns
// of x, in a dispatch of their own), the rows' sums combined from the 5 chunks and finished
// into the mean and scale in a generic over the rows: the kernel computes each row's values
// before its K loop, the consumer is per element alone. M prime.
func.func @main(%x: tensor<37x40xf16>, %w: tensor<40x72xf16>, %cv: tensor<72xf32>, %dv: tensor<72xf32>) -> tensor<37x72xf16> {
  %zero = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<37x5xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<37x5xf32>) -> tensor<37x5xf32>
  %x3 = tensor.expand_shape %x [[0], [1, 2]] output_shape [37, 5, 8] : tensor<37x40xf16> into tensor<37x5x8xf16>
  %t:2 = linalg.generic {indexing_maps = [affine_map<(m, c, w) -> (m, c, w)>, affine_map<(m, c, w) -> (m, c, 0)>, affine_map<(m, c, w) -> (m, c)>, affine_map<(m, c, w) -> (m, c)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x3, %x3 : tensor<37x5x8xf16>, tensor<37x5x8xf16>) outs(%fc, %fc : tensor<37x5xf32>, tensor<37x5xf32>) {
  ^bb0(%v: f16, %v0: f16, %s1: f32, %s2: f32):
    %a = arith.extf %v : f16 to f32
    %a0 = arith.extf %v0 : f16 to f32
    %d = arith.subf %a, %a0 : f32
    %n1 = arith.addf %s1, %d : f32
    %sq = arith.mulf %d, %d : f32
    %n2 = arith.addf %s2, %sq : f32
    linalg.yield %n1, %n2 : f32, f32
  } -> (tensor<37x5xf32>, tensor<37x5xf32>)
  %e1 = tensor.empty() : tensor<37xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<37xf32>) -> tensor<37xf32>
  %eacc = tensor.empty() : tensor<37x72xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<37x72xf32>) -> tensor<37x72xf32>
  %eo = tensor.empty() : tensor<37x72xf16>
  %res = flow.dispatch.region -> (tensor<37x72xf16>) {
    // sum(x), sum(x - x0), sum((x - x0)^2) from the chunks: with d = h0 - x0 a chunk adds
    // t1 + 8 h0, t1 + 8 d and t2 + 2 d t1 + 8 d^2.
    %s:3 = linalg.generic {indexing_maps = [affine_map<(m, c) -> (m, c)>, affine_map<(m, c) -> (m, c)>, affine_map<(m, c) -> (m, c * 8)>, affine_map<(m, c) -> (m, 0)>, affine_map<(m, c) -> (m)>, affine_map<(m, c) -> (m)>, affine_map<(m, c) -> (m)>], iterator_types = ["parallel", "reduction"]}
        ins(%t#0, %t#1, %x, %x : tensor<37x5xf32>, tensor<37x5xf32>, tensor<37x40xf16>, tensor<37x40xf16>) outs(%f1, %f1, %f1 : tensor<37xf32>, tensor<37xf32>, tensor<37xf32>) {
    ^bb0(%t1: f32, %t2: f32, %h0: f16, %x0: f16, %s0: f32, %s1: f32, %s2: f32):
      %w8 = arith.constant 8.0 : f32
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
    } -> (tensor<37xf32>, tensor<37xf32>, tensor<37xf32>)
    %rows:2 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>, affine_map<(m) -> (m)>, affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
        ins(%s#0, %s#1, %s#2 : tensor<37xf32>, tensor<37xf32>, tensor<37xf32>) outs(%e1, %e1 : tensor<37xf32>, tensor<37xf32>) {
    ^bb0(%r0: f32, %r1: f32, %r2: f32, %o0: f32, %o1: f32):
      %kk = arith.constant 40.0 : f32
      %mu = arith.divf %r0, %kk : f32
      %m1 = arith.divf %r1, %kk : f32
      %m2 = arith.divf %r2, %kk : f32
      %m1s = arith.mulf %m1, %m1 : f32
      %var = arith.subf %m2, %m1s : f32
      %eps = arith.constant 1.0e-5 : f32
      %ve = arith.addf %var, %eps : f32
      %rs = math.rsqrt %ve : f32
      linalg.yield %mu, %rs : f32, f32
    } -> (tensor<37xf32>, tensor<37xf32>)
    %mm = linalg.matmul ins(%x, %w : tensor<37x40xf16>, tensor<40x72xf16>) outs(%facc : tensor<37x72xf32>) -> tensor<37x72xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %rows#0, %rows#1, %cv, %dv : tensor<37x72xf32>, tensor<37xf32>, tensor<37xf32>, tensor<72xf32>, tensor<72xf32>) outs(%eo : tensor<37x72xf16>) {
    ^bb0(%acc: f32, %mu: f32, %rs: f32, %c: f32, %dd: f32, %o: f16):
      %mc = arith.mulf %mu, %c : f32
      %tt = arith.subf %acc, %mc : f32
      %u = arith.mulf %rs, %tt : f32
      %y = arith.addf %u, %dd : f32
      %h = arith.truncf %y : f32 to f16
      linalg.yield %h : f16
    } -> tensor<37x72xf16>
    flow.return %y : tensor<37x72xf16>
  }
  return %res : tensor<37x72xf16>
}
