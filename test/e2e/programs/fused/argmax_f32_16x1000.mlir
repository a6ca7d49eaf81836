// argmax as torch-mlir writes aten.argmax / max.dim (value and i64 index) of 2x, rows of 1000.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<16x1000xf32>) -> (tensor<16xf32>, tensor<16xi64>) {
  %init = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %four = arith.constant 4.0 : f32
  %cut = arith.constant 2.5 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %e = tensor.empty() : tensor<16xf32>
  %ei = tensor.empty() : tensor<16xi64>
  %fv = linalg.fill ins(%init : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<16xi64>) -> tensor<16xi64>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x1000xf32>) outs(%fv, %fi : tensor<16xf32>, tensor<16xi64>) {
  ^bb0(%a: f32, %v: f32, %i: i64):
    %c = arith.addf %a, %a : f32
    %idx = linalg.index 1 : index
    %idxc = arith.index_cast %idx : index to i64
    %m = arith.maximumf %c, %v : f32
    %better = arith.cmpf ogt, %c, %v : f32
    %ni = arith.select %better, %idxc, %i : i64
    linalg.yield %m, %ni : f32, i64
  } -> (tensor<16xf32>, tensor<16xi64>)
  return %r#0, %r#1 : tensor<16xf32>, tensor<16xi64>
}
