// Seed 001's first case as a whole program: its #tuning on the root, a 4096 f32 sum to a
// scalar. Compiled for gfx942 (256 threads, 4 subgroups of 64 on the reduced dim).
#tuning = #iree_codegen.compilation_info<
  lowering_config = #iree_gpu.lowering_config<{workgroup = [0], reduction = [1024],
                                               thread_basis = [[64], [0]], subgroup_basis = [[4], [0]]}>,
  translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute>
                                                    workgroup_size = [256, 1, 1] subgroup_size = 64>>
func.func @main(%x: tensor<4096xf32>) -> tensor<f32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], compilation_info = #tuning}
      ins(%x : tensor<4096xf32>) outs(%f : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
