// linalg.reduce (the named op) over the inner dim.
func.func @main(%x0: tensor<32x96xf32>) -> tensor<32xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %r = linalg.reduce ins(%x0 : tensor<32x96xf32>) outs(%f : tensor<32xf32>) dimensions = [1]
    (%in: f32, %out: f32) {
      %m = arith.maximumf %in, %out : f32
      linalg.yield %m : f32
    }
  return %r : tensor<32xf32>
}
