// B dequantized: f16 weights extended to f32, times a per-output-channel (n) scale, then an f32
// matmul; IREE fuses the producer into the matmul's dispatch.
func.func @main(%a: tensor<33x70xf32>, %w: tensor<70x40xf16>, %s: tensor<40xf32>) -> tensor<33x40xf32> {
  %zero = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<70x40xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(k, n) -> (k, n)>, affine_map<(k, n) -> (n)>, affine_map<(k, n) -> (k, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %s : tensor<70x40xf16>, tensor<40xf32>) outs(%eb : tensor<70x40xf32>) {
  ^bb0(%x: f16, %c: f32, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %y = arith.mulf %xf, %c : f32
    linalg.yield %y : f32
  } -> tensor<70x40xf32>
  %e = tensor.empty() : tensor<33x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<33x40xf32>) -> tensor<33x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<33x70xf32>, tensor<70x40xf32>) outs(%z : tensor<33x40xf32>) -> tensor<33x40xf32>
  return %mm : tensor<33x40xf32>
}
