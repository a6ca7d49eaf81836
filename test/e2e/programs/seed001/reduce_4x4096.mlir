// Seed 001's second case as a whole program: its #tuning (early-2025 key names) on the
// root, a 4x4096 f32 row sum. Compiled for gfx942 (256 threads, 4 subgroups of 64 on the
// reduced dim, 4 rows per workgroup).
#tuning = #iree_codegen.compilation_info<
  lowering_config = #iree_gpu.lowering_config<{workgroup = [4, 0], reduction = [0, 256],
                                               thread_basis = [[4, 16], [0, 1]], subgroup_basis = [[1, 4], [0, 1]]}>,
  translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute>
                                                    workgroup_size = [256, 1, 1] subgroup_size = 64>>
func.func @main(%x: tensor<4x4096xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], compilation_info = #tuning}
      ins(%x : tensor<4x4096xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
