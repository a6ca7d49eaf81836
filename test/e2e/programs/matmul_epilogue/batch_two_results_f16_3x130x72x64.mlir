// f16 operands, a batch, and a consumer of two results of two types: the f32 sum with a bias is
// stored, and its ReLU rounded to f16 is stored too. The output stage, quad stores
// and TMA stores hold one result, so both are stored directly; 130 rows leave an M tail.
func.func @main(%a: tensor<3x130x64xf16>, %w: tensor<3x64x72xf16>, %bias: tensor<72xf32>)
    -> (tensor<3x130x72xf32>, tensor<3x130x72xf16>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x130x72xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x130x72xf32>) -> tensor<3x130x72xf32>
  %mm = linalg.batch_matmul ins(%a, %w : tensor<3x130x64xf16>, tensor<3x64x72xf16>) outs(%f : tensor<3x130x72xf32>) -> tensor<3x130x72xf32>
  %eh = tensor.empty() : tensor<3x130x72xf16>
  %y:2 = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (j)>,
                                          affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm, %bias : tensor<3x130x72xf32>, tensor<72xf32>) outs(%e, %eh : tensor<3x130x72xf32>, tensor<3x130x72xf16>) {
  ^bb0(%p: f32, %b: f32, %o: f32, %o2: f16):
    %s = arith.addf %p, %b : f32
    %r = arith.maximumf %s, %z : f32
    %h = arith.truncf %r : f32 to f16
    linalg.yield %s, %h : f32, f16
  } -> (tensor<3x130x72xf32>, tensor<3x130x72xf16>)
  return %y#0, %y#1 : tensor<3x130x72xf32>, tensor<3x130x72xf16>
}
