// Rows reduced over an outer dim (fused strided rows): softmax(x, dim=1) of an f16 x [2, 21,
// 33], in f32 (a PyTorch export's form): 66 rows of 21 strided by 33.
func.func @main(%x: tensor<2x21x33xf16>) -> tensor<2x21x33xf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<2x33xf32>
  %ef = tensor.empty() : tensor<2x21x33xf32>
  %eo = tensor.empty() : tensor<2x21x33xf16>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x33xf32>) -> tensor<2x33xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x33xf32>) -> tensor<2x33xf32>
  %xf = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x21x33xf16>) outs(%ef : tensor<2x21x33xf32>) {
  ^bb0(%a: f16, %o: f32):
    %y = arith.extf %a : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x21x33xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%xf : tensor<2x21x33xf32>) outs(%fm : tensor<2x33xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x33xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%xf, %m : tensor<2x21x33xf32>, tensor<2x33xf32>) outs(%fz : tensor<2x33xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<2x33xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%xf, %m, %s : tensor<2x21x33xf32>, tensor<2x33xf32>, tensor<2x33xf32>) outs(%eo : tensor<2x21x33xf16>) {
  ^bb0(%a: f32, %mm: f32, %ss: f32, %o: f16):
    %d = arith.subf %a, %mm : f32
    %ex = math.exp %d : f32
    %d2 = arith.divf %ex, %ss : f32
    %y = arith.truncf %d2 : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x21x33xf16>
  return %r : tensor<2x21x33xf16>
}
