// A computed by a producer: f16 activations extended to f32 times a per-row (m) scale.
func.func @main(%a: tensor<33x70xf16>, %s: tensor<33xf32>, %b: tensor<70x40xf32>) -> tensor<33x40xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<33x70xf32>
  %af = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %s : tensor<33x70xf16>, tensor<33xf32>) outs(%ea : tensor<33x70xf32>) {
  ^bb0(%x: f16, %c: f32, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %y = arith.mulf %xf, %c : f32
    linalg.yield %y : f32
  } -> tensor<33x70xf32>
  %e = tensor.empty() : tensor<33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<33x40xf32>) -> tensor<33x40xf32>
  %mm = linalg.matmul ins(%af, %b : tensor<33x70xf32>, tensor<70x40xf32>) outs(%z : tensor<33x40xf32>) -> tensor<33x40xf32>
  return %mm : tensor<33x40xf32>
}
