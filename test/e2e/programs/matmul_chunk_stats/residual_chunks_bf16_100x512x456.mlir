// A product's residual epilogue and statistics per chunk of 64 columns of its result in the
// same dispatch (as in residual_chunks_f16_37x72x40.mlir), bf16, M and K past any tile.
func.func @main(%x: tensor<100x456xbf16>, %w: tensor<456x512xbf16>, %b: tensor<512xf32>, %r: tensor<100x512xbf16>)
    -> (tensor<100x512xbf16>, tensor<100x8xf32>, tensor<100x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %eacc = tensor.empty() : tensor<100x512xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<100x512xf32>) -> tensor<100x512xf32>
  %eo = tensor.empty() : tensor<100x512xbf16>
  %ec = tensor.empty() : tensor<100x8xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<100x8xf32>) -> tensor<100x8xf32>
  %res:3 = flow.dispatch.region -> (tensor<100x512xbf16>, tensor<100x8xf32>, tensor<100x8xf32>) {
    %mm = linalg.matmul ins(%x, %w : tensor<100x456xbf16>, tensor<456x512xbf16>) outs(%facc : tensor<100x512xf32>) -> tensor<100x512xf32>
    %h = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %b, %r : tensor<100x512xf32>, tensor<512xf32>, tensor<100x512xbf16>) outs(%eo : tensor<100x512xbf16>) {
    ^bb0(%acc: f32, %bb: f32, %rr: bf16, %o: bf16):
      %s = arith.addf %acc, %bb : f32
      %re = arith.extf %rr : bf16 to f32
      %t = arith.addf %s, %re : f32
      %y = arith.truncf %t : f32 to bf16
      linalg.yield %y : bf16
    } -> tensor<100x512xbf16>
    %t:2 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, (n floordiv 64) * 64)>, affine_map<(m, n) -> (m, n floordiv 64)>, affine_map<(m, n) -> (m, n floordiv 64)>], iterator_types = ["parallel", "reduction"]}
        ins(%h, %h : tensor<100x512xbf16>, tensor<100x512xbf16>) outs(%fc, %fc : tensor<100x8xf32>, tensor<100x8xf32>) {
    ^bb0(%v: bf16, %v0: bf16, %s1: f32, %s2: f32):
      %a = arith.extf %v : bf16 to f32
      %a0 = arith.extf %v0 : bf16 to f32
      %d = arith.subf %a, %a0 : f32
      %n1 = arith.addf %s1, %d : f32
      %sq = arith.mulf %d, %d : f32
      %n2 = arith.addf %s2, %sq : f32
      linalg.yield %n1, %n2 : f32, f32
    } -> (tensor<100x8xf32>, tensor<100x8xf32>)
    flow.return %h, %t#0, %t#1 : tensor<100x512xbf16>, tensor<100x8xf32>, tensor<100x8xf32>
  }
  return %res#0, %res#1, %res#2 : tensor<100x512xbf16>, tensor<100x8xf32>, tensor<100x8xf32>
}
