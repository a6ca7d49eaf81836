// f16 NN + a residual [m, n] in f16 + cast to f16 (BERT's FFN down, narrowed): the residual
// is read by the sum's dispatch, at each output.
func.func @main(%a: tensor<48x6144xf16>, %b: tensor<6144x40xf16>, %res: tensor<48x40xf16>) -> tensor<48x40xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x40xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<48x40xf32>) -> tensor<48x40xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<48x6144xf16>, tensor<6144x40xf16>) outs(%z : tensor<48x40xf32>) -> tensor<48x40xf32>
  %e16 = tensor.empty() : tensor<48x40xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %res : tensor<48x40xf32>, tensor<48x40xf16>) outs(%e16 : tensor<48x40xf16>) {
  ^bb0(%x: f32, %c: f16, %o: f16):
    %cf = arith.extf %c : f16 to f32
    %y = arith.addf %x, %cf : f32
    %t = arith.truncf %y : f32 to f16
    linalg.yield %t : f16
  } -> tensor<48x40xf16>
  return %r : tensor<48x40xf16>
}
