// The plan that a staging pass records with its stagings (ldsopt/matmul/options.py) is the one
// ldsopt-matmul-lds and any later staging pass follow, left at their default plan options:
// here a 64x64 tile of 128 threads at one workgroup per SM (no nvvm.minctasm), where
// ldsopt-matmul-lds's defaults would plan 128x128 at two.
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true tiles=64x64x8x4 workgroups-per-cu=1})' | filecheck %s --check-prefix=REC
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true tiles=64x64x8x4 workgroups-per-cu=1}, ldsopt-matmul-lds)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true tiles=64x64x8x4 workgroups-per-cu=1}, ldsopt-dtl-layout, ldsopt-matmul-lds)' | filecheck %s --check-prefix=DTL

// REC-LABEL: func.func @nn_f16
// REC: linalg.generic {{.*}}ldsopt.matmul_plan = {by = "ldsopt-inthread-transpose", k_bytes = 64 : i64, k_pack = -1 : i64, mma = true, stages = 2 : i64, tiling = "64x64x8x4", workgroups_per_cu = 1 : i64}
// REC-SAME: ldsopt.staged_by = ["ldsopt-inthread-transpose"]
// CHECK: #translation = #iree_codegen.translation_info<{{.*}}workgroup_size = [128, 1, 1]
// CHECK-LABEL: func.func @nn_f16() attributes {ldsopt.bank_conflicts = {{.*}}, ldsopt.lowered_by = ["ldsopt-inthread-transpose", "ldsopt-matmul-lds"]
// CHECK-NOT: nvvm.minctasm
// CHECK: memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], {{.*}}k_pack = 2 : i64, {{.*}}lds_shape = [2, 64, 32]
// CHECK: memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}}lds_shape = [2, 64, 32], {{.*}}register_transpose = true, {{.*}}threads = 128 : i64
// CHECK: nvgpu.mma.sync
// DTL: #translation = #iree_codegen.translation_info<{{.*}}workgroup_size = [128, 1, 1]
// DTL-LABEL: func.func @nn_f16() attributes {ldsopt.bank_conflicts = {{.*}}, ldsopt.dtl = {A = "direct none", B = "left alone: {{.*}}"}, ldsopt.lowered_by = ["ldsopt-inthread-transpose", "ldsopt-dtl-layout", "ldsopt-matmul-lds"]
// DTL: memref.alloc() alignment = 16 {ldsopt.staging = {{.*}}lds_shape = [2, 2048], {{.*}}threads = 128 : i64
// DTL: nvgpu.device_async_copy
func.func @nn_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x256xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<256x256xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<256x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<256x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x256xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x256xf16>
  %5 = tensor.empty() : tensor<256x256xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<256x64xf16>, tensor<64x256xf16>) outs(%6 : tensor<256x256xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<256x256xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<256x256xf32> into memref<256x256xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @nn_f16 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A record made by hand (stages 3, k-pack 0: no k_order) is followed by every pass; it is not rewritten.
// REC-LABEL: func.func @recorded
// REC: linalg.generic {{.*}}ldsopt.matmul_plan = {by = "hand", k_bytes = 64 : i64, k_pack = 0 : i64, mma = true, stages = 3 : i64, tiling = "64x64x8x4", workgroups_per_cu = 1 : i64}
// REC-SAME: ldsopt.staging = {B = {dims = ["k", "n"], fragment = "{{[^"]*}}", {{.*}}lds_order = [0, 1], lds_shape = [3, 64, 32]
// CHECK: #translation = #iree_codegen.translation_info<{{.*}}workgroup_size = [128, 1, 1]
// CHECK-LABEL: func.func @recorded()
// CHECK-NOT: nvvm.minctasm
// CHECK: memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], {{.*}}lds_shape = [3, 64, 40]
// CHECK: memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}}lds_shape = [3, 64, 32], {{.*}}register_transpose = true
// DTL-LABEL: func.func @recorded()
// DTL: memref.alloc() alignment = 16 {ldsopt.staging = {{.*}}lds_shape = [3, 2048]
func.func @recorded() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<256x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x256xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<256x256xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<256x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<256x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x256xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x256xf16>
  %5 = tensor.empty() : tensor<256x256xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<256x64xf16>, tensor<64x256xf16>) outs(%6 : tensor<256x256xf32>) attrs = {ldsopt.matmul_plan = {by = "hand", k_bytes = 64 : i64, k_pack = 0 : i64, mma = true, stages = 3 : i64, tiling = "64x64x8x4", workgroups_per_cu = 1 : i64}} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<256x256xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<256x256xf32> into memref<256x256xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @recorded {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
