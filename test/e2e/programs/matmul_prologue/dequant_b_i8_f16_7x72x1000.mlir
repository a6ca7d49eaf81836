// An f16 model's linear layer on 7 tokens: i8 weights dequantized to f16 (sitofp times a per-
// output-channel f16 scale), an f16 x f16 matmul accumulating in f32, truncated to f16.
func.func @main(%x: tensor<7x1000xf16>, %w: tensor<1000x72xi8>, %s: tensor<72xf16>) -> tensor<7x72xf16> {
  %zero = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<1000x72xf16>
  %wf = linalg.generic {indexing_maps = [affine_map<(k, n) -> (k, n)>, affine_map<(k, n) -> (n)>, affine_map<(k, n) -> (k, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %s : tensor<1000x72xi8>, tensor<72xf16>) outs(%ew : tensor<1000x72xf16>) {
  ^bb0(%q: i8, %c: f16, %o: f16):
    %qf = arith.sitofp %q : i8 to f16
    %y = arith.mulf %qf, %c : f16
    linalg.yield %y : f16
  } -> tensor<1000x72xf16>
  %e = tensor.empty() : tensor<7x72xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<7x72xf32>) -> tensor<7x72xf32>
  %mm = linalg.matmul ins(%x, %wf : tensor<7x1000xf16>, tensor<1000x72xf16>) outs(%z : tensor<7x72xf32>) -> tensor<7x72xf32>
  %e16 = tensor.empty() : tensor<7x72xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<7x72xf32>) outs(%e16 : tensor<7x72xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<7x72xf16>
  return %r : tensor<7x72xf16>
}
