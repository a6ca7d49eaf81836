// K^T of a cache: 13 positions from a row read at run time of a [64, 6 heads, 16] f16 buffer,
// heads 2..3, [pos, head, dim] -> [head, dim, pos]. A run-time row moves the slice by whole
// rows (96 elements), so its rows still start 16-byte aligned: vector<8> reads on CUDA and
// gfx942 (lds-run --input 1=i32=ROW, ROW <= 51).
func.func @main(%cache: tensor<64x6x16xf16>, %i: tensor<i32>) -> tensor<2x16x13xf16> {
  %e = tensor.extract %i[] : tensor<i32>
  %o = arith.index_cast %e : i32 to index
  %k = tensor.extract_slice %cache[%o, 2, 0] [13, 2, 16] [1, 1, 1] : tensor<64x6x16xf16> to tensor<13x2x16xf16>
  %em = tensor.empty() : tensor<2x16x13xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k : tensor<13x2x16xf16>) outs(%em : tensor<2x16x13xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<2x16x13xf16>
  return %t : tensor<2x16x13xf16>
}
