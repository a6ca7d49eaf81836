// Rows reduced over an outer dim (fused strided rows): softmax over dim 1 of x [5, 13, 11]: 55
// rows, an odd count (a subgroup a row), of 13 strided by 11.
func.func @main(%x: tensor<5x13x11xf32>) -> tensor<5x13x11xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<5x11xf32>
  %ef = tensor.empty() : tensor<5x13x11xf32>
  %eo = tensor.empty() : tensor<5x13x11xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<5x11xf32>) -> tensor<5x11xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<5x11xf32>) -> tensor<5x11xf32>
  %xf = tensor.cast %x : tensor<5x13x11xf32> to tensor<5x13x11xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%xf : tensor<5x13x11xf32>) outs(%fm : tensor<5x11xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<5x11xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%xf, %m : tensor<5x13x11xf32>, tensor<5x11xf32>) outs(%fz : tensor<5x11xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<5x11xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%xf, %m, %s : tensor<5x13x11xf32>, tensor<5x11xf32>, tensor<5x11xf32>) outs(%eo : tensor<5x13x11xf32>) {
  ^bb0(%a: f32, %mm: f32, %ss: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %ex = math.exp %d : f32
    %d2 = arith.divf %ex, %ss : f32
    %y = arith.addf %d2, %zero : f32
    linalg.yield %y : f32
  } -> tensor<5x13x11xf32>
  return %r : tensor<5x13x11xf32>
}
