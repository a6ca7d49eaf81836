// A transposed slice of 24 columns at a column read at run time (a push constant of the
// dispatch): whether its rows start aligned is known only then, so they are read one element
// at a time into LDS; the output is written in vectors (lds-run --input 1=i32=COLUMN).
func.func @main(%x: tensor<37x64xf32>, %i: tensor<i32>) -> tensor<24x37xf32> {
  %e = tensor.extract %i[] : tensor<i32>
  %o = arith.index_cast %e : i32 to index
  %s = tensor.extract_slice %x[0, %o] [37, 24] [1, 1] : tensor<37x64xf32> to tensor<37x24xf32>
  %em = tensor.empty() : tensor<24x37xf32>
  %t = linalg.transpose ins(%s : tensor<37x24xf32>) outs(%em : tensor<24x37xf32>) permutation = [1, 0]
  return %t : tensor<24x37xf32>
}
