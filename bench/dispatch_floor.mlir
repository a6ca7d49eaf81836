// A dispatch of (almost) nothing: 4 floats added. Its time per dispatch in a batch of
// iree-benchmark-module is the runtime's per-dispatch floor, which a kernel shorter than it
// cannot go under (bench/kernel_times.py compares it with the kernel's own duration).
//   lds-bench bench/dispatch_floor.mlir --target cuda --prepare DIR
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
