// A user layout with 3 subgroups on the reduced dim (a count that is no power of two, as in
// the anchor's masked-tail case): 2 rows x 4 lanes per subgroup, vectors of 4, so that
// 3 x 4 x 4 = 48 covers a row; 4 lanes read back the 3 partials of a row (one gets the identity).
#config = #iree_codegen.compilation_info<
  lowering_config = #iree_gpu.lowering_config<{workgroup = [2, 0], partial_reduction = [0, 48],
                                               lane_basis = [[2, 4], [0, 1]], subgroup_basis = [[1, 3], [0, 1]]}>,
  translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute>
                                                    workgroup_size = [24, 1, 1] subgroup_size = 8>>
func.func @main(%x0: tensor<16x48xf32>) -> tensor<16xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], compilation_info = #config}
      ins(%x0 : tensor<16x48xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.maximumf %in0, %out : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
