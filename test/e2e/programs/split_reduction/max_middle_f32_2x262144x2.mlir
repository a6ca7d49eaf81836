// Max over the middle dim (linalg.reduce): the reduced dim is split in place, [2, S, R/S, 2].
func.func @main(%x0: tensor<2x262144x2xf32>) -> tensor<2x2xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.reduce ins(%x0 : tensor<2x262144x2xf32>) outs(%f : tensor<2x2xf32>) dimensions = [1]
    (%in: f32, %out: f32) {
      %m = arith.maximumf %in, %out : f32
      linalg.yield %m : f32
    }
  return %r : tensor<2x2xf32>
}
