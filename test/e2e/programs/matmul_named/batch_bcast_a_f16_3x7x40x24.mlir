// Batch matmul, A's batch of 1 broadcast against B's 3 (torch.matmul of [1, M, K] and [3, K, N]).
func.func @main(%a: tensor<1x7x24xf16>, %b: tensor<3x24x40xf16>) -> tensor<3x7x40xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x7x40xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<3x7x40xf32>) -> tensor<3x7x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (0, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<1x7x24xf16>, tensor<3x24x40xf16>) outs(%f : tensor<3x7x40xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %x32 = arith.extf %x : f16 to f32
    %y32 = arith.extf %y : f16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x7x40xf32>
  return %r : tensor<3x7x40xf32>
}
