// A product's residual epilogue and statistics per chunk of 64 columns of its result in the
// same dispatch (as in residual_chunks_f16_37x72x40.mlir) at GPT-2's FFN down (K of 3072), which
// the wgmma plans split over a cluster of 2: the summing warps make the statistics from their registers.
func.func @main(%x: tensor<512x3072xf16>, %w: tensor<3072x768xf16>, %b: tensor<768xf32>, %r: tensor<512x768xf16>)
    -> (tensor<512x768xf16>, tensor<512x12xf32>, tensor<512x12xf32>) {
  %zero = arith.constant 0.0 : f32
  %eacc = tensor.empty() : tensor<512x768xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<512x768xf32>) -> tensor<512x768xf32>
  %eo = tensor.empty() : tensor<512x768xf16>
  %ec = tensor.empty() : tensor<512x12xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<512x12xf32>) -> tensor<512x12xf32>
  %res:3 = flow.dispatch.region -> (tensor<512x768xf16>, tensor<512x12xf32>, tensor<512x12xf32>) {
    %mm = linalg.matmul ins(%x, %w : tensor<512x3072xf16>, tensor<3072x768xf16>) outs(%facc : tensor<512x768xf32>) -> tensor<512x768xf32>
    %h = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %b, %r : tensor<512x768xf32>, tensor<768xf32>, tensor<512x768xf16>) outs(%eo : tensor<512x768xf16>) {
    ^bb0(%acc: f32, %bb: f32, %rr: f16, %o: f16):
      %s = arith.addf %acc, %bb : f32
      %re = arith.extf %rr : f16 to f32
      %t = arith.addf %s, %re : f32
      %y = arith.truncf %t : f32 to f16
      linalg.yield %y : f16
    } -> tensor<512x768xf16>
    %t:2 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, (n floordiv 64) * 64)>, affine_map<(m, n) -> (m, n floordiv 64)>, affine_map<(m, n) -> (m, n floordiv 64)>], iterator_types = ["parallel", "reduction"]}
        ins(%h, %h : tensor<512x768xf16>, tensor<512x768xf16>) outs(%fc, %fc : tensor<512x12xf32>, tensor<512x12xf32>) {
    ^bb0(%v: f16, %v0: f16, %s1: f32, %s2: f32):
      %a = arith.extf %v : f16 to f32
      %a0 = arith.extf %v0 : f16 to f32
      %d = arith.subf %a, %a0 : f32
      %n1 = arith.addf %s1, %d : f32
      %sq = arith.mulf %d, %d : f32
      %n2 = arith.addf %s2, %sq : f32
      linalg.yield %n1, %n2 : f32, f32
    } -> (tensor<512x12xf32>, tensor<512x12xf32>)
    flow.return %h, %t#0, %t#1 : tensor<512x768xf16>, tensor<512x12xf32>, tensor<512x12xf32>
  }
  return %res#0, %res#1, %res#2 : tensor<512x768xf16>, tensor<512x12xf32>, tensor<512x12xf32>
}
