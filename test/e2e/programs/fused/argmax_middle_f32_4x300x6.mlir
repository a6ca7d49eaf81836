// torch.argmax(x, dim=1) of x [4, 300, 6] as torch-mlir's max.dim writes it (a select body
// reading the position along the reduced dim): IREE puts the reduced loop last and reads x
// transposed, so the 24 rows are strided by 6 in memory (fused strided rows).
func.func @main(%x: tensor<4x300x6xf32>) -> tensor<4x6xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<4x6xf32>
  %ei = tensor.empty() : tensor<4x6xi64>
  %fv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<4x6xf32>) -> tensor<4x6xf32>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4x6xi64>) -> tensor<4x6xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<4x300x6xf32>) outs(%fv, %fi : tensor<4x6xf32>, tensor<4x6xi64>) {
  ^bb0(%a: f32, %v: f32, %i: i64):
    %idx = linalg.index 1 : index
    %idx64 = arith.index_cast %idx : index to i64
    %m = arith.maximumf %a, %v : f32
    %gt = arith.cmpf ogt, %a, %v : f32
    %ni = arith.select %gt, %idx64, %i : i64
    linalg.yield %m, %ni : f32, i64
  } -> (tensor<4x6xf32>, tensor<4x6xi64>)
  return %r#1 : tensor<4x6xi64>
}
