// Column slices of odd widths (37 and 38 of 75) of an f16 tensor of dynamic rows: rows that
// vectors do not divide, the second slice starting at an odd column.
func.func @main(%x: tensor<?x75xf16>) -> (tensor<?x37xf16>, tensor<?x38xf16>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x75xf16>
  %a = tensor.extract_slice %x[0, 0] [%n, 37] [1, 1] : tensor<?x75xf16> to tensor<?x37xf16>
  %b = tensor.extract_slice %x[0, 37] [%n, 38] [1, 1] : tensor<?x75xf16> to tensor<?x38xf16>
  return %a, %b : tensor<?x37xf16>, tensor<?x38xf16>
}
