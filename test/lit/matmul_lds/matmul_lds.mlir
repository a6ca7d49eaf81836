// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s

// NN f32, 64x64x64: one 64x64 tile (256 threads of 4x4), K in 4 steps of 16, no tails so
// no guards. Both operands are staged in their global order; the stores are 4-wide rows, the
// A fragment reads run along K and the B ones along N (no padding needed on 8 lanes). The LDS
// allocs hold two tiles; the prologue fills buffer 0, each K step reads the next global tile
// (index clamped to the last), multiplies buffer kt % 2, stores into (kt + 1) % 2, one barrier.
// CHECK:       #iree_codegen.translation_info<pipeline = #iree_gpu.spirv_pipeline<BaseLowering> workgroup_size = [256, 1, 1] subgroup_size = 8>
// CHECK-LABEL: func.func @nn_f32
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[A:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         %[[B:.+]] = hal.interface.binding.subspan {{.*}} binding(1)
// CHECK:         %[[C:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], fragment = "fma 4x4", lds_order = [1, 0], lds_shape = [2, 64, 16], operand = "A", pad = 0 : i64, rake = 1 : i64, read_vector = 4 : i64, register_transpose = false, swizzle = "none", thread_map = "(4,64):(4,16)", threads = 256 : i64, tile = [64, 16], vector = 4 : i64}} : memref<2x64x16xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], fragment = "fma 4x4", lds_order = [1, 0], lds_shape = [2, 16, 64], operand = "B", pad = 0 : i64, rake = 1 : i64, read_vector = 4 : i64, register_transpose = false, swizzle = "none", thread_map = "(16,16):(4,64)", threads = 256 : i64, tile = [16, 64], vector = 4 : i64}} : memref<2x16x64xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:     scf.if
// CHECK:         %[[GA:.+]] = vector.transfer_read %[[A]]{{.*}} vector<4xf32>
// CHECK:         %[[GB:.+]] = vector.transfer_read %[[B]]{{.*}} vector<4xf32>
// CHECK:         vector.transfer_write %[[GA]], %[[LA]][%c0,
// CHECK:         vector.transfer_write %[[GB]], %[[LB]][%c0,
// CHECK-NEXT:    gpu.barrier
// CHECK:         %[[ACC:.+]]:4 = scf.for %[[KT:.+]] = %c0 to %c4 step %c1 iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK:           %[[CUR:.+]] = arith.remui %[[KT]], %c2
// CHECK:           %[[NEXT:.+]] = arith.addi %[[KT]], %c1
// CHECK:           %[[KN:.+]] = arith.muli %[[NEXT]], %c16
// CHECK:           %[[KCL:.+]] = arith.minui %[[KN]], %c48
// CHECK:           %[[PA:.+]] = vector.transfer_read %[[A]]
// CHECK:           %[[PB:.+]] = vector.transfer_read %[[B]]
// CHECK:           vector.transfer_read %[[LA]][%[[CUR]], %{{.+}}, %c0]{{.*}} vector<4xf32>
// CHECK:           vector.transfer_read %[[LB]][%[[CUR]], %c0, %{{.+}}]{{.*}} vector<4xf32>
// CHECK:           vector.fma %{{.+}}, %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK-NOT:       gpu.barrier
// CHECK:           %[[NXT:.+]] = arith.remui %[[NEXT]], %c2
// CHECK:           vector.transfer_write %[[PA]], %[[LA]][%[[NXT]],
// CHECK-NEXT:      vector.transfer_write %[[PB]], %[[LB]][%[[NXT]],
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     scf.if
// CHECK:         vector.transfer_write %[[ACC]]#0, %[[C]]
// CHECK:         vector.transfer_write %[[ACC]]#3, %[[C]]
// CHECK:       iree_codegen.dispatch_config @nn_f32
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:    %[[X:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[Y:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[Z:.+]] = arith.constant 1 : index
// CHECK-NEXT:    iree_codegen.yield %[[X]], %[[Y]], %[[Z]]
func.func @nn_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [8, 8, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %5 = tensor.empty() : tensor<64x64xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%6 : tensor<64x64xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{reduction = [0, 0, 32], thread = [1, 4, 0], workgroup = [8, 32, 1]}>} {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %8 = arith.mulf %in, %in_0 : f32
    %9 = arith.addf %out, %8 : f32
    linalg.yield %9 : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @nn_f32 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// NT bf16 into a loaded f32 init, 33x17x70: tails on M, N and K. Global reads are guarded
// and read zeros outside (vectors of 2: 70 = 2 x 35); B (N x K) is staged K-contiguous, its
// rows padded by 4 (the bank model: fragment reads of 8 lanes walk rows 4 apart). Fragments are
// converted to f32 after the LDS reads; each output element (17 is odd) is guarded and adds the
// loaded init, read from the output binding.
// CHECK-LABEL: func.func @nt_bf16_acc
// CHECK:         %[[A:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         %[[C:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], {{.*}} operand = "A", pad = 0 : i64, {{.*}} vector = 2 : i64}} : memref<2x64x32xbf16, #gpu.address_space<workgroup>>
// CHECK:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["n", "k"], fragment = "fma 4x4", lds_order = [0, 1], lds_shape = [2, 64, 36], operand = "B", pad = 4 : i64, {{.*}}}} : memref<2x64x36xbf16, #gpu.address_space<workgroup>>
// CHECK:         %[[IN_M:.+]] = arith.cmpi ult, %{{.+}}, %c33
// CHECK:         %[[IN_K:.+]] = arith.cmpi ult, %{{.+}}, %c70
// CHECK:         %[[IN:.+]] = arith.andi %[[IN_M]], %[[IN_K]]
// CHECK:         scf.if %[[IN]] -> (vector<2xbf16>) {
// CHECK:           vector.transfer_read %[[A]]
// CHECK:         } else {
// CHECK:           vector.broadcast %{{.+}} : bf16 to vector<2xbf16>
// CHECK:         arith.cmpi ult, %{{.+}}, %c17
// CHECK:         gpu.barrier
// CHECK:         scf.for
// CHECK:           scf.if %{{.+}} -> (vector<2xbf16>)
// CHECK:           %[[R:.+]] = vector.transfer_read %[[LB]]{{.*}} : memref<2x64x36xbf16, #gpu.address_space<workgroup>>, vector<4xbf16>
// CHECK-NEXT:      arith.extf %[[R]] : vector<4xbf16> to vector<4xf32>
// CHECK:           vector.fma
// CHECK:           gpu.barrier
// CHECK:         %[[M:.+]] = arith.cmpi ult, %{{.+}}, %c33
// CHECK:         %[[N:.+]] = arith.cmpi ult, %{{.+}}, %c17
// CHECK:         %[[MN:.+]] = arith.andi %[[M]], %[[N]]
// CHECK:         scf.if %[[MN]] {
// CHECK:           %[[OLD:.+]] = vector.transfer_read %[[C]]{{.*}} vector<1xf32>
// CHECK-NEXT:      %[[NEW:.+]] = arith.addf %{{.+}}, %[[OLD]] : vector<1xf32>
// CHECK-NEXT:      vector.transfer_write %[[NEW]], %[[C]]
func.func @nt_bf16_acc() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<33x70xbf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<17x70xbf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<33x17xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<33x70xbf16, #hal.descriptor_type<storage_buffer>> -> tensor<33x70xbf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<17x70xbf16, #hal.descriptor_type<storage_buffer>> -> tensor<17x70xbf16>
  %5 = iree_codegen.load_from_buffer %2 : memref<33x17xf32, #hal.descriptor_type<storage_buffer>> -> tensor<33x17xf32>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<33x70xbf16>, tensor<17x70xbf16>) outs(%5 : tensor<33x17xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_BF16>, padding = [64, 8, 16], promote_operands = [0, 1], reduction = [0, 0, 1], subgroup = [1, 1, 0], workgroup = [64, 8, 0]}>} {
  ^bb0(%in: bf16, %in_0: bf16, %out: f32):
    %7 = arith.extf %in : bf16 to f32
    %8 = arith.extf %in_0 : bf16 to f32
    %9 = arith.mulf %7, %8 : f32
    %10 = arith.addf %out, %9 : f32
    linalg.yield %10 : f32
  } -> tensor<33x17xf32>
  iree_codegen.store_to_buffer %6, %2 : tensor<33x17xf32> into memref<33x17xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// TN f16, 64x96x48: A (K x M) is staged M-contiguous (lds_order [0, 1]), its fragment read
// as vectors along M; K (48) has a tail in steps of 32: guarded reads on K only.
// CHECK-LABEL: func.func @tn_f16
// CHECK:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "m"], fragment = "fma 4x4", lds_order = [0, 1], lds_shape = [2, 32, 64], operand = "A", {{.*}}} : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}}} : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// CHECK:         gpu.block_id x upper_bound 2
// CHECK-NOT:     arith.cmpi ult, %{{.+}}, %c64
// CHECK:         arith.cmpi ult, %{{.+}}, %c48
// CHECK:         scf.for %{{.+}} = %c0 to %c2 step %c1
// CHECK:           vector.transfer_read %[[LA]][%{{.+}}, %c0, %{{.+}}]{{.*}} vector<4xf16>
// CHECK:           arith.extf {{.*}} : vector<4xf16> to vector<4xf32>
func.func @tn_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<48x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<48x96xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x96xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<48x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<48x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<48x96xf16, #hal.descriptor_type<storage_buffer>> -> tensor<48x96xf16>
  %5 = tensor.empty() : tensor<64x96xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<64x96xf32>) -> tensor<64x96xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<48x64xf16>, tensor<48x96xf16>) outs(%6 : tensor<64x96xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, promote_operands = [0, 1], reduction = [0, 0, 1], subgroup = [2, 2, 0], workgroup = [64, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<64x96xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<64x96xf32> into memref<64x96xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Batched TT f32, 3x24x36x40: the batch is the grid's z; every access indexes it first.
// CHECK-LABEL: func.func @batch_tt_f32
// CHECK:         %[[A:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         %[[C:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "m"], {{.*}}} : memref<2x16x64xf32, #gpu.address_space<workgroup>>
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["n", "k"], {{.*}} pad = 4 : i64, {{.*}}} : memref<2x64x20xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[Z:.+]] = gpu.block_id z upper_bound 3
// CHECK:         vector.transfer_read %[[A]][%[[Z]], %{{.+}}, %{{.+}}]
// CHECK:         scf.for %{{.+}} = %c0 to %c3 step %c1
// CHECK:           gpu.barrier
// CHECK-NEXT:      scf.yield
// CHECK:         scf.if
// CHECK-NEXT:      vector.transfer_write %{{.+}}#0, %[[C]][%[[Z]], %{{.+}}, %{{.+}}]
// CHECK:       iree_codegen.dispatch_config @batch_tt_f32
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:    %[[X:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[Y:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[ZN:.+]] = arith.constant 3 : index
// CHECK-NEXT:    iree_codegen.yield %[[X]], %[[Y]], %[[ZN]]
func.func @batch_tt_f32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [32, 8, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x40x24xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x36x40xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<3x24x36xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<3x40x24xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x40x24xf32>
  %4 = iree_codegen.load_from_buffer %1 : memref<3x36x40xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x36x40xf32>
  %5 = tensor.empty() : tensor<3x24x36xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<3x24x36xf32>) -> tensor<3x24x36xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<3x40x24xf32>, tensor<3x36x40xf32>) outs(%6 : tensor<3x24x36xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{reduction = [0, 0, 0, 8], thread = [1, 1, 16, 0], workgroup = [1, 32, 128, 1]}>} {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %8 = arith.mulf %in, %in_0 : f32
    %9 = arith.addf %out, %8 : f32
    linalg.yield %9 : f32
  } -> tensor<3x24x36xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<3x24x36xf32> into memref<3x24x36xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @batch_tt_f32 {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A contraction whose body is not a multiply-add is left alone.
// CHECK-LABEL: func.func @max_plus
// CHECK-NOT:     ldsopt.lowered_by
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic
func.func @max_plus() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [8, 8, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %5 = tensor.empty() : tensor<64x64xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%6 : tensor<64x64xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{reduction = [0, 0, 32], thread = [1, 4, 0], workgroup = [8, 32, 1]}>} {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %8 = arith.mulf %in, %in_0 : f32
    %9 = arith.maximumf %out, %8 : f32
    linalg.yield %9 : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// The named linalg.matmul (IREE generalizes it, but it is matched as written too).
// CHECK-LABEL: func.func @named_matmul
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"]
// CHECK:         vector.fma
// CHECK-NOT:     linalg.matmul
func.func @named_matmul() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [8, 8, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf32>
  %5 = tensor.empty() : tensor<64x64xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %7 = linalg.matmul ins(%3, %4 : tensor<64x64xf32>, tensor<64x64xf32>) outs(%6 : tensor<64x64xf32>) -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
