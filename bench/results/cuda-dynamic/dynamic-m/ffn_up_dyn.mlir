func.func @main(%a: tensor<?x768xf16>, %b: tensor<768x1024xf16>, %bias: tensor<1024xf16>) -> tensor<?x1024xf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x768xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %c = linalg.matmul ins(%a, %b : tensor<?x768xf16>, tensor<768x1024xf16>) outs(%f : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %e16 = tensor.empty(%m) : tensor<?x1024xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<?x1024xf32>, tensor<1024xf16>) outs(%e16 : tensor<?x1024xf16>) {
  ^bb0(%x: f32, %bb: f16, %o: f16):
    %bf = arith.extf %bb : f16 to f32
    %s = arith.addf %x, %bf : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x1024xf16>
  return %y : tensor<?x1024xf16>
}
