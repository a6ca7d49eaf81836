// A gated product of two slices of one [64, 2 x 40] f16 buffer (a fused projection's gate and
// up), 13 rows from a row read at run time, with a per-column scale: silu(gate) * up * scale.
// A run-time row moves the slices by whole rows of 80 halves, so vectors stay as wide as the
// rows allow (lds-run --input 1=i32=ROW, ROW <= 51). (The scale keeps IREE from collapsing the
// rows across the slices' gaps, which its own pipeline fails to compile.)
func.func @main(%x: tensor<64x80xf16>, %i: tensor<i32>, %scale: tensor<40xf16>) -> tensor<13x40xf16> {
  %e = tensor.extract %i[] : tensor<i32>
  %o = arith.index_cast %e : i32 to index
  %g = tensor.extract_slice %x[%o, 0] [13, 40] [1, 1] : tensor<64x80xf16> to tensor<13x40xf16>
  %u = tensor.extract_slice %x[%o, 40] [13, 40] [1, 1] : tensor<64x80xf16> to tensor<13x40xf16>
  %one = arith.constant 1.0 : f16
  %em = tensor.empty() : tensor<13x40xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%g, %u, %scale : tensor<13x40xf16>, tensor<13x40xf16>, tensor<40xf16>) outs(%em : tensor<13x40xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16, %out: f16):
    %n = arith.negf %a : f16
    %x1 = math.exp %n : f16
    %d = arith.addf %x1, %one : f16
    %s = arith.divf %a, %d : f16
    %y = arith.mulf %s, %b : f16
    %z = arith.mulf %y, %c : f16
    linalg.yield %z : f16
  } -> tensor<13x40xf16>
  return %r : tensor<13x40xf16>
}
