// GPT-2's O projection with its residual epilogue (512x768x768 f16), no statistics: the
// baseline of ../../../test/e2e/programs/matmul_chunk_stats/residual_chunks_f16_512x768x768.mlir.
func.func @main(%x: tensor<512x768xf16>, %w: tensor<768x768xf16>, %b: tensor<768xf32>, %r: tensor<512x768xf16>)
    -> tensor<512x768xf16> {
  %zero = arith.constant 0.0 : f32
  %eacc = tensor.empty() : tensor<512x768xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<512x768xf32>) -> tensor<512x768xf32>
  %eo = tensor.empty() : tensor<512x768xf16>
  %ec = tensor.empty() : tensor<512x12xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<512x12xf32>) -> tensor<512x12xf32>
  %res = flow.dispatch.region -> (tensor<512x768xf16>) {
    %mm = linalg.matmul ins(%x, %w : tensor<512x768xf16>, tensor<768x768xf16>) outs(%facc : tensor<512x768xf32>) -> tensor<512x768xf32>
    %h = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %b, %r : tensor<512x768xf32>, tensor<768xf32>, tensor<512x768xf16>) outs(%eo : tensor<512x768xf16>) {
    ^bb0(%acc: f32, %bb: f32, %rr: f16, %o: f16):
      %s = arith.addf %acc, %bb : f32
      %re = arith.extf %rr : f16 to f32
      %t = arith.addf %s, %re : f32
      %y = arith.truncf %t : f32 to f16
      linalg.yield %y : f16
    } -> tensor<512x768xf16>
    flow.return %h : tensor<512x768xf16>
  }
  return %res : tensor<512x768xf16>
}
