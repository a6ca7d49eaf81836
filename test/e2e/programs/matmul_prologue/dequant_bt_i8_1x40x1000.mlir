// M = 1 (a linear layer on one token): i8 weights stored (n, k), dequantized by sitofp times a
// per-output-channel (n) scale, read transposed by the matmul (x @ W^T).
func.func @main(%x: tensor<1x1000xf32>, %w: tensor<40x1000xi8>, %s: tensor<40xf32>) -> tensor<1x40xf32> {
  %zero = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<40x1000xf32>
  %wf = linalg.generic {indexing_maps = [affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (n)>, affine_map<(n, k) -> (n, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %s : tensor<40x1000xi8>, tensor<40xf32>) outs(%ew : tensor<40x1000xf32>) {
  ^bb0(%q: i8, %c: f32, %o: f32):
    %qf = arith.sitofp %q : i8 to f32
    %y = arith.mulf %qf, %c : f32
    linalg.yield %y : f32
  } -> tensor<40x1000xf32>
  %e = tensor.empty() : tensor<1x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x40xf32>) -> tensor<1x40xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %wf : tensor<1x1000xf32>, tensor<40x1000xf32>) outs(%z : tensor<1x40xf32>) -> tensor<1x40xf32>
  return %mm : tensor<1x40xf32>
}
