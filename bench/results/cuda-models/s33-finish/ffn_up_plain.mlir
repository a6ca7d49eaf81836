func.func @main(%x: tensor<512x768xf16>, %w: tensor<768x3072xf16>, %cv: tensor<3072xf32>, %dv: tensor<3072xf32>, %b: tensor<3072xf16>) -> tensor<512x3072xf16> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<512xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512xf32>) -> tensor<512xf32>
  %eacc = tensor.empty() : tensor<512x3072xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<512x3072xf32>) -> tensor<512x3072xf32>
  %eo = tensor.empty() : tensor<512x3072xf16>
  %res = flow.dispatch.region -> (tensor<512x3072xf16>) {
    %mm = linalg.matmul ins(%x, %w : tensor<512x768xf16>, tensor<768x3072xf16>) outs(%facc : tensor<512x3072xf32>) -> tensor<512x3072xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %b : tensor<512x3072xf32>, tensor<3072xf16>) outs(%eo : tensor<512x3072xf16>) {
    ^bb0(%acc: f32, %bb: f16, %o: f16):
      %bf = arith.extf %bb : f16 to f32
      %y = arith.addf %acc, %bf : f32
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
