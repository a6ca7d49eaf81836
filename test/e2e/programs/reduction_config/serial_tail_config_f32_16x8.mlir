// A user layout on the root (IREE 3.13 keys), written for lavapipe's 8-lane subgroups: the
// 8 lanes of a subgroup take 8 rows, 2 subgroups take the other rows and 2 the two halves of
// each row; one thread per subgroup on the reduced dim (the "serial tail" IREE 3.13 gets
// wrong): both subgroups' partials must be combined.
#config = #iree_codegen.compilation_info<
  lowering_config = #iree_gpu.lowering_config<{workgroup = [16, 0], partial_reduction = [0, 8],
                                               lane_basis = [[8, 1], [0, 1]], subgroup_basis = [[2, 2], [0, 1]]}>,
  translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute>
                                                    workgroup_size = [32, 1, 1] subgroup_size = 8>>
func.func @main(%x0: tensor<16x8xf32>) -> tensor<16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], compilation_info = #config}
      ins(%x0 : tensor<16x8xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.addf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
