// torch.argmin of floor(2x) as an exported model holds it (torch dialect): IREE 3.13's torch
// input lowers it to iree_linalg_ext.arg_compare (cmpf olt, an i32 index) and an extension to
// i64; rows of 1000: ties, the first index of the min wins.
func.func @main(%x: !torch.vtensor<[6,1000],f32>) -> !torch.vtensor<[6],si64> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %two = torch.constant.float 2.0
  %s = torch.aten.mul.Scalar %x, %two : !torch.vtensor<[6,1000],f32>, !torch.float -> !torch.vtensor<[6,1000],f32>
  %f = torch.aten.floor %s : !torch.vtensor<[6,1000],f32> -> !torch.vtensor<[6,1000],f32>
  %r = torch.aten.argmin %f, %int1, %false : !torch.vtensor<[6,1000],f32>, !torch.int, !torch.bool -> !torch.vtensor<[6],si64>
  return %r : !torch.vtensor<[6],si64>
}
