// Seed 001's dispatches are in early-2025 IREE syntax; lds-opt upgrades them (on request or
// when detected) so IREE 3.13 parses them, keeping the #tuning keys for our passes.

// RUN: lds-opt %S/../../seeds/seed001_reduce_4x4096.mlir --upgrade-iree-syntax | filecheck %s
// RUN: lds-opt %S/../../seeds/seed001_reduce_4x4096.mlir | filecheck %s
// RUN: lds-opt %S/../../seeds/seed001_reduce_4096.mlir | filecheck %s --check-prefix=SCALAR

// CHECK:          iree_codegen.target_info = #iree_gpu.target<arch = "gfx942"
// CHECK:          #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> workgroup_size = [256, 1, 1] subgroup_size = 64
// CHECK{LITERAL}: lowering_config = #iree_gpu.lowering_config<{reduction = [0, 256], subgroup_basis = [[1, 4], [0, 1]], thread_basis = [[4, 16], [0, 1]], workgroup = [4, 0]}>
// CHECK:          hal.executable.export public @reduce_fp16_dispatch_0_generic_4x4096_f32 {{.*}} count(%{{.+}}: !hal.device) -> (index, index, index)
// CHECK:            iree_tensor_ext.dispatch.workgroup_count_from_slice()
// CHECK:          iree_tensor_ext.dispatch.tensor.load {{.*}} -> tensor<4x4096xf32>
// CHECK:          linalg.generic {{.*}}compilation_info = #{{.+}}
// CHECK:          iree_tensor_ext.dispatch.tensor.store

// SCALAR{LITERAL}: thread_basis = [[64], [0]]
// SCALAR:          linalg.generic {{.*}}iterator_types = ["reduction"]
