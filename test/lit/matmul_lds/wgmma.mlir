// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-dtl-layout{grids=all}, ldsopt-matmul-lds)' | filecheck %s --check-prefix=WGMMA
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds)' | filecheck %s --check-prefix=SM89
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-matmul-lds{mma=false})' | filecheck %s --check-prefix=NOMMA

// NT f16, 96x160x64 on sm_90a: the wgmma scheme. 64x48 tiles (a warpgroup of 128 threads,
// m64n48k16: B is K-contiguous, so the narrow width that makes more workgroups is taken;
// 160 columns are 4 tiles, the last one 16 wide), 4 LDS tiles of each operand, 1024-byte aligned, 64-element K rows in the
// 128-byte swizzle, filled by cp.async of 16-byte chunks in the operand's order; one
// descriptor per operand (start address / 16 | stride 1024 B << 32 | 128-byte swizzle << 62,
// leading offset 1: unused K-major). The prologue starts 3 tiles and waits for the first; each
// K step fences, issues 4 wgmmas (row-major A, column-major B: both K-major), commits, waits
// for the step before's group, lands the next tile (fence.proxy.async: cp.async wrote it, wgmma
// reads it through the async proxy), one barrier, then starts tile kt + 3. ldsopt-dtl-layout
// leaves the dispatch to this scheme.
// WGMMA:       workgroup_size = [128, 1, 1] subgroup_size = 32
// WGMMA-LABEL: func.func @nt_f16
// WGMMA-SAME:    ldsopt.missed = [["ldsopt-dtl-layout", "left to ldsopt-matmul-lds's wgmma scheme (sm_90a)"]]
// WGMMA:         %[[LA:.+]] = memref.alloc() alignment = 1024 {ldsopt.staging = {copy = "direct", dims = ["m", "k"], fragment = "wgmma m64n48k16", {{.*}}swizzle = "swizzled<8,1,8>"{{.*}} : memref<4x64x64xf16, #gpu.address_space<workgroup>>
// WGMMA:         %[[LB:.+]] = memref.alloc() alignment = 1024 {ldsopt.staging = {copy = "direct", dims = ["n", "k"], fragment = "wgmma m64n48k16", {{.*}}swizzle = "swizzled<8,1,8>"{{.*}} : memref<4x48x64xf16, #gpu.address_space<workgroup>>
// WGMMA:         memref.extract_aligned_pointer_as_index %[[LA]]
// WGMMA:         %[[DA:.+]] = arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// WGMMA:         memref.extract_aligned_pointer_as_index %[[LB]]
// WGMMA:         %[[DB:.+]] = arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// WGMMA:         nvgpu.device_async_copy %{{.+}}, %[[LA]][%c0, %{{.+}}, %{{.+}}], 8 bypassL1 : memref<96x64xf16, #gpu.address_space<global>> to memref<4x64x64xf16, #gpu.address_space<workgroup>>
// WGMMA:         nvgpu.device_async_create_group
// WGMMA:         nvgpu.device_async_create_group
// WGMMA:         %[[G:.+]] = nvgpu.device_async_create_group
// WGMMA-NEXT:    nvgpu.device_async_wait %[[G]] numGroups = 2
// WGMMA-NEXT:    nvvm.fence.proxy <async.shared>, space = <cta>
// WGMMA-NEXT:    gpu.barrier
// WGMMA:         scf.for {{.*}} -> (!llvm.struct<(f32, {{.*}})>) {
// WGMMA:           nvvm.wgmma.fence.aligned
// WGMMA-COUNT-4:   nvvm.wgmma.mma_async {{.*}} <m = 64, n = 48, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// WGMMA-NEXT:      nvvm.wgmma.commit.group.sync.aligned
// WGMMA-NEXT:      nvvm.wgmma.wait.group.sync.aligned 1
// WGMMA-NEXT:      nvgpu.device_async_wait %{{.+}} numGroups = 1
// WGMMA-NEXT:      nvvm.fence.proxy <async.shared>, space = <cta>
// WGMMA-NEXT:      gpu.barrier
// WGMMA:           nvgpu.device_async_copy
// WGMMA:           nvgpu.device_async_create_group
// WGMMA-NEXT:      scf.yield
// WGMMA:         nvvm.wgmma.wait.group.sync.aligned 0
// The accumulator's elements 4i, 4i+1 (row l/4) and 4i+2, 4i+3 (row l/4 + 8) of each 8 columns,
// through the output stage (padded LDS rows), which the tile leaves in 16-byte row pieces.
// WGMMA:         llvm.extractvalue %{{.+}}[0]
// WGMMA:         vector.store {{.*}} : memref<64x56xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// WGMMA:         gpu.barrier
// WGMMA:         vector.load {{.*}} : memref<64x56xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// WGMMA-NEXT:    vector.store {{.*}} : memref<96x160xf32, #hal.descriptor_type<storage_buffer>>, vector<4xf32>
// sm_89 (--target cuda): mma.sync as before, no wgmma.
// SM89-LABEL:  func.func @nt_f16
// SM89-NOT:      wgmma
// SM89:          nvgpu.mma.sync
// SM89-NOT:      wgmma
// mma=false on sm_90a: the FMA scheme, no matrix cores.
// NOMMA-LABEL: func.func @nt_f16
// NOMMA-NOT:     wgmma
// NOMMA:         vector.fma

func.func @nt_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<160x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<96x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<160x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<160x64xf16>
  %5 = tensor.empty() : tensor<96x160xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<96x160xf32>) -> tensor<96x160xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<96x64xf16>, tensor<160x64xf16>) outs(%6 : tensor<96x160xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<96x160xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<96x160xf32> into memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// NN f16, 96x160x64: B [k, n] is held MN-major: 64-column blocks of the tile's 64 K rows in the
// 128-byte swizzle (column_block = 64), its descriptor's leading offset the 8 KiB from one block
// to the next (512 << 16 more than A's), and wgmma reads it transposed (B row-major).
// WGMMA-LABEL: func.func @nn_f16
// WGMMA:         %[[LB:.+]] = memref.alloc() alignment = 1024 {ldsopt.staging = {column_block = 64 : i64, copy = "direct", dims = ["k", "n"], fragment = "wgmma m64n64k16"
// WGMMA:         arith.ori %{{.+}}, %c4611686293305360384_i64 : i64
// WGMMA:         arith.ori %{{.+}}, %c4611686293338849280_i64 : i64
// WGMMA:         scf.for
// WGMMA-COUNT-4:   nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// SM89-LABEL:  func.func @nn_f16
// SM89-NOT:      wgmma
// SM89:          nvgpu.mma.sync
// NOMMA-LABEL: func.func @nn_f16

func.func @nn_f16() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x160xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<96x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x160xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x160xf16>
  %5 = tensor.empty() : tensor<96x160xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<96x160xf32>) -> tensor<96x160xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<96x64xf16>, tensor<64x160xf16>) outs(%6 : tensor<96x160xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<96x160xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<96x160xf32> into memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  return
}


// -----

// NT f16, 96x160x70: K is not a multiple of 8 (the 16-byte copies of a row would straddle K), so
// the wgmma scheme refuses it and says why on the dispatch; mma.sync as on sm_89.
// WGMMA-LABEL: func.func @nt_f16_k70
// WGMMA-SAME:    ldsopt.wgmma_refused = "wgmma's 16-byte copies need each operand's contiguous dim a multiple of 8, its starts aligned to it"
// WGMMA-NOT:     wgmma.mma_async
// WGMMA:         nvgpu.mma.sync
// SM89-LABEL:  func.func @nt_f16_k70
// SM89-NOT:      wgmma
// NOMMA-LABEL: func.func @nt_f16_k70
// NOMMA-NOT:     wgmma_refused
func.func @nt_f16_k70() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x70xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<160x70xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<96x70xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x70xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<160x70xf16, #hal.descriptor_type<storage_buffer>> -> tensor<160x70xf16>
  %5 = tensor.empty() : tensor<96x160xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<96x160xf32>) -> tensor<96x160xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<96x70xf16>, tensor<160x70xf16>) outs(%6 : tensor<96x160xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<96x160xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<96x160xf32> into memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  return
}


// -----

// A padded NCHW 3x3 f16 convolution (a 32x64 image, 16 channels; what PyTorch's ResNets export):
// the image is B, read along the output's columns, and its rows (128 bytes) start aligned, but
// each run of 64 columns starts at `ow + kw - 1`: 16-byte copies of it would start 2 bytes off
// for most kw (cp.async needs its own size), so the wgmma scheme refuses it and says why;
// mma.sync through registers.
// WGMMA-LABEL: func.func @padded_nchw_f16
// WGMMA-SAME:    ldsopt.wgmma_refused = "wgmma's 16-byte copies need each operand's contiguous dim a multiple of 8, its starts aligned to it"
// WGMMA-NOT:     wgmma.mma_async
// WGMMA:         nvgpu.mma.sync
#layout_nchw = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @padded_nchw_f16() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f16
  %cz = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout_nchw) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1x16x32x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout_nchw) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x16x3x3xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout_nchw) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<1x64x32x64xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<1x16x32x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<1x16x32x64xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<64x16x3x3xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x16x3x3xf16>
  %e = tensor.empty() : tensor<1x64x32x64xf32>
  %z = linalg.fill ins(%cz : f32) outs(%e : tensor<1x64x32x64xf32>) -> tensor<1x64x32x64xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %cst : f16
  } : tensor<1x16x32x64xf16> to tensor<1x16x34x66xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xp, %w : tensor<1x16x34x66xf16>, tensor<64x16x3x3xf16>) outs(%z : tensor<1x64x32x64xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %a = arith.extf %in : f16 to f32
    %b = arith.extf %in_0 : f16 to f32
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x64x32x64xf32>
  iree_codegen.store_to_buffer %y, %2 : tensor<1x64x32x64xf32> into memref<1x64x32x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
