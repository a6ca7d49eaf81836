// Rows reduced over an outer dim (fused strided rows): softmax over dim 0 of x [2000, 6]: 6 long
// rows of 2000 strided by 6, few enough that the subgroups the rows leave take the rows too
// (with a workgroup size asked for, or where the grid leaves compute units idle).
func.func @main(%x: tensor<2000x6xf32>) -> tensor<2000x6xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<6xf32>
  %ef = tensor.empty() : tensor<2000x6xf32>
  %eo = tensor.empty() : tensor<2000x6xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<6xf32>) -> tensor<6xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<6xf32>) -> tensor<6xf32>
  %xf = tensor.cast %x : tensor<2000x6xf32> to tensor<2000x6xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%xf : tensor<2000x6xf32>) outs(%fm : tensor<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<6xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%xf, %m : tensor<2000x6xf32>, tensor<6xf32>) outs(%fz : tensor<6xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %ex = math.exp %d : f32
    %y = arith.addf %ex, %o : f32
    linalg.yield %y : f32
  } -> tensor<6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xf, %m, %s : tensor<2000x6xf32>, tensor<6xf32>, tensor<6xf32>) outs(%eo : tensor<2000x6xf32>) {
  ^bb0(%a: f32, %mm: f32, %ss: f32, %o: f32):
    %d = arith.subf %a, %mm : f32
    %ex = math.exp %d : f32
    %d2 = arith.divf %ex, %ss : f32
    %y = arith.addf %d2, %zero : f32
    linalg.yield %y : f32
  } -> tensor<2000x6xf32>
  return %r : tensor<2000x6xf32>
}
