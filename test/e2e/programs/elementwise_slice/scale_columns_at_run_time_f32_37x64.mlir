// 24 columns of a 37x64 buffer from a column read at run time, times a per-column scale: a
// column moves the rows by single elements, so they are read and computed one element at a
// time (lds-run --input 1=i32=COLUMN, COLUMN <= 40). (The scale keeps IREE from collapsing
// the rows across the slice's gaps, which its own pipeline fails to compile.)
func.func @main(%x: tensor<37x64xf32>, %i: tensor<i32>, %scale: tensor<24xf32>) -> tensor<37x24xf32> {
  %e = tensor.extract %i[] : tensor<i32>
  %o = arith.index_cast %e : i32 to index
  %s = tensor.extract_slice %x[0, %o] [37, 24] [1, 1] : tensor<37x64xf32> to tensor<37x24xf32>
  %em = tensor.empty() : tensor<37x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s, %scale : tensor<37x24xf32>, tensor<24xf32>) outs(%em : tensor<37x24xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<37x24xf32>
  return %r : tensor<37x24xf32>
}
