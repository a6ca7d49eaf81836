// NCHW 3x3 f16, padded by 1 (as PyTorch's ResNets export it): the image's rows are 128 bytes,
// but a run of output columns starts at `ow + kw - 1`, off the 16 bytes a copy needs. On
// cuda-sm90a the wgmma scheme took it with 16-byte cp.async copies from those starts; it
// refuses it now (mma.sync through registers).
func.func @main(%x: tensor<1x16x32x64xf16>, %w: tensor<64x16x3x3xf16>) -> tensor<1x64x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %pv = arith.constant 0.0 : f16
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %pv : f16
  } : tensor<1x16x32x64xf16> to tensor<1x16x34x66xf16>
  %e = tensor.empty() : tensor<1x64x32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x32x64xf32>) -> tensor<1x64x32x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xp, %w : tensor<1x16x34x66xf16>, tensor<64x16x3x3xf16>) outs(%z : tensor<1x64x32x64xf32>) {
    ^bb0(%in: f16, %in_0: f16, %out: f32):
      %a = arith.extf %in : f16 to f32
      %b = arith.extf %in_0 : f16 to f32
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %out, %p : f32
      linalg.yield %s : f32
  } -> tensor<1x64x32x64xf32>
  return %y : tensor<1x64x32x64xf32>
}
