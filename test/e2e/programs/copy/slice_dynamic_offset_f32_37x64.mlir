// A slice of 24 columns at a column read at run time (IREE loads it in the dispatch): vectors
// where the column is a multiple of 4, scalars otherwise (lds-run --input 1=i32=COLUMN).
func.func @main(%x: tensor<37x64xf32>, %i: tensor<i32>) -> tensor<37x24xf32> {
  %e = tensor.extract %i[] : tensor<i32>
  %o = arith.index_cast %e : i32 to index
  %s = tensor.extract_slice %x[0, %o] [37, 24] [1, 1] : tensor<37x64xf32> to tensor<37x24xf32>
  return %s : tensor<37x24xf32>
}
