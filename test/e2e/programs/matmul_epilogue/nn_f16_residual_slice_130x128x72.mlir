// f16, a slice at a 16-byte-aligned start: the second product's consumer adds columns 128 to
// 255 of the first's 130x384 result (one of three projections IREE keeps in one buffer), read
// as wide vectors through the slice's view; 130 rows leave a tail of row tiles.
func.func @main(%x: tensor<130x72xf16>, %w1: tensor<72x384xf16>, %a: tensor<130x72xf16>, %w2: tensor<72x128xf16>,
                %bias: tensor<128xf16>) -> tensor<130x128xf16> {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<130x384xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<130x384xf32>) -> tensor<130x384xf32>
  %p1 = linalg.matmul ins(%x, %w1 : tensor<130x72xf16>, tensor<72x384xf16>) outs(%f1 : tensor<130x384xf32>) -> tensor<130x384xf32>
  %h1 = tensor.empty() : tensor<130x384xf16>
  %wide = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%p1 : tensor<130x384xf32>) outs(%h1 : tensor<130x384xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<130x384xf16>
  %s = tensor.extract_slice %wide[0, 128] [130, 128] [1, 1] : tensor<130x384xf16> to tensor<130x128xf16>
  %e2 = tensor.empty() : tensor<130x128xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<130x128xf32>) -> tensor<130x128xf32>
  %mm = linalg.matmul ins(%a, %w2 : tensor<130x72xf16>, tensor<72x128xf16>) outs(%f2 : tensor<130x128xf32>) -> tensor<130x128xf32>
  %h2 = tensor.empty() : tensor<130x128xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias, %s : tensor<130x128xf32>, tensor<128xf16>, tensor<130x128xf16>) outs(%h2 : tensor<130x128xf16>) {
  ^bb0(%p: f32, %b: f16, %r: f16, %o: f16):
    %bf = arith.extf %b : f16 to f32
    %rf = arith.extf %r : f16 to f32
    %t = arith.addf %p, %bf : f32
    %u = arith.addf %t, %rf : f32
    %h = arith.truncf %u : f32 to f16
    linalg.yield %h : f16
  } -> tensor<130x128xf16>
  return %y : tensor<130x128xf16>
}
