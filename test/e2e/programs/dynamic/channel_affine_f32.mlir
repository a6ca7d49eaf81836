// x[b, c, i] * g[c] + t[c], the batch dynamic, the rows static and odd (GroupNorm's affine
// over 7x9 images with a dynamic batch, as IREE fuses it).
func.func @main(%x: tensor<?x16x63xf32>, %g: tensor<16xf32>, %t: tensor<16xf32>) -> tensor<?x16x63xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16x63xf32>
  %e = tensor.empty(%n) : tensor<?x16x63xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %g, %t : tensor<?x16x63xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<?x16x63xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  } -> tensor<?x16x63xf32>
  return %r : tensor<?x16x63xf32>
}
