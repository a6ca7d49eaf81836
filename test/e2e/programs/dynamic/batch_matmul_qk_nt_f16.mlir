// Attention's scores Q K^T with K stored [keys, d] (NT, both operands K-contiguous: on sm_90a
// the wgmma scheme's): an f16 batch matmul into f32 of two heads whose M (the queries) and N
// (the keys) are dynamic, each its own extent.
func.func @main(%q: tensor<2x?x64xf16>, %k: tensor<2x?x64xf16>) -> tensor<2x?x?xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %q, %c1 : tensor<2x?x64xf16>
  %n = tensor.dim %k, %c1 : tensor<2x?x64xf16>
  %e = tensor.empty(%m, %n) : tensor<2x?x?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>,
                                         affine_map<(b, m, n, k) -> (b, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x?x64xf16>, tensor<2x?x64xf16>) outs(%acc : tensor<2x?x?xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x?x?xf32>
  return %mm : tensor<2x?x?xf32>
}
