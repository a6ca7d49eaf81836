// An update of 23 columns of a 37x64 tensor at a column read at run time (lds-run --input
// 2=i32=COLUMN): vectors of 8 halves where the column is a multiple of 8, scalars otherwise.
func.func @main(%x: tensor<37x64xf16>, %u: tensor<37x23xf16>, %i: tensor<i32>) -> tensor<37x64xf16> {
  %e = tensor.extract %i[] : tensor<i32>
  %o = arith.index_cast %e : i32 to index
  %s = tensor.insert_slice %u into %x[0, %o] [37, 23] [1, 1] : tensor<37x23xf16> into tensor<37x64xf16>
  return %s : tensor<37x64xf16>
}
