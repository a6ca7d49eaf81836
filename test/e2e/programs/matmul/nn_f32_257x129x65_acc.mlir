// NN f32: tails on M, N and K; C accumulated into a loaded init.
func.func @main(%a: tensor<257x65xf32>, %b: tensor<65x129xf32>, %c: tensor<257x129xf32>) -> tensor<257x129xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<257x65xf32>, tensor<65x129xf32>) outs(%c : tensor<257x129xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<257x129xf32>
  return %r : tensor<257x129xf32>
}
