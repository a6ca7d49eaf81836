// RoPE's rotate_half as Qwen3 and OLMo2 leave it after their QK-norm (transformers, exported by
// iree-turbine): each head's vector read at d + 64 (negated) for d < 64 and at d - 64 after, a
// tensor.extract at an index that varies along the fastest dim otherwise than as it (a
// scattered gather): the kernel reads it element by element.
func.func @main(%x: tensor<4x16x128xf32>, %c: tensor<16x128xf32>, %s: tensor<16x128xf32>) -> tensor<4x16x128xf32> {
  %e = tensor.empty() : tensor<4x16x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(h, t, d) -> (h, t, d)>, affine_map<(h, t, d) -> (t, d)>, affine_map<(h, t, d) -> (t, d)>, affine_map<(h, t, d) -> (h, t, d)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %c, %s : tensor<4x16x128xf32>, tensor<16x128xf32>, tensor<16x128xf32>) outs(%e : tensor<4x16x128xf32>) {
  ^bb0(%xv: f32, %cv: f32, %sv: f32, %out: f32):
    %h = linalg.index 0 : index
    %t = linalg.index 1 : index
    %d = linalg.index 2 : index
    %c64 = arith.constant 64 : index
    %lo = arith.cmpi ult, %d, %c64 : index
    %up = arith.addi %d, %c64 : index
    %down = arith.subi %d, %c64 : index
    %at = arith.select %lo, %up, %down : index
    %v = tensor.extract %x[%h, %t, %at] : tensor<4x16x128xf32>
    %n = arith.negf %v : f32
    %rot = arith.select %lo, %n, %v : f32
    %a = arith.mulf %xv, %cv : f32
    %b = arith.mulf %rot, %sv : f32
    %y = arith.addf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<4x16x128xf32>
  return %r : tensor<4x16x128xf32>
}
