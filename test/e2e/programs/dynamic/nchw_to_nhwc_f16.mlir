// NCHW -> NHWC under a dynamic batch, f16, with a residual already NHWC: 24 channels of 7x9
// images (the channels' rows 63 elements long, so vectors along HW are scalars and along C
// as wide as 24 allows).
#in = affine_map<(n, h, w, c) -> (n, c, h, w)>
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @main(%x: tensor<?x24x7x9xf16>, %r: tensor<?x7x9x24xf16>) -> tensor<?x7x9x24xf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x24x7x9xf16>
  %e = tensor.empty(%n) : tensor<?x7x9x24xf16>
  %y = linalg.generic {indexing_maps = [#in, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %r : tensor<?x24x7x9xf16>, tensor<?x7x9x24xf16>) outs(%e : tensor<?x7x9x24xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %v = arith.addf %a, %b : f16
    linalg.yield %v : f16
  } -> tensor<?x7x9x24xf16>
  return %y : tensor<?x7x9x24xf16>
}
