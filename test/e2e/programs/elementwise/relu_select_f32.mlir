func.func @main(%a0: tensor<257x129xf32>) -> tensor<257x129xf32> {
  %e = tensor.empty() : tensor<257x129xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a0 : tensor<257x129xf32>) outs(%e : tensor<257x129xf32>) {
  ^bb0(%x0: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %x0, %z : f32
    %y = arith.select %c, %x0, %z : f32
    linalg.yield %y : f32
  } -> tensor<257x129xf32>
  return %r : tensor<257x129xf32>
}
