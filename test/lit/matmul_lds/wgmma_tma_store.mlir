// RUN: lds-opt %s --split-input-file --target=cuda-sm90a \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=128x128x8x8 workgroups-per-cu=1 tma-store=true})' \
// RUN:   | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=128x128x8x8 workgroups-per-cu=1})' \
// RUN:   | filecheck %s --check-prefix=THREADS
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=128x256x8x16 workgroups-per-cu=1 tma-store=true})' \
// RUN:   | filecheck %s --check-prefix=PARTS
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=128x256x8x16 workgroups-per-cu=1 tma-store=double})' \
// RUN:   | filecheck %s --check-prefix=DOUBLE

// A walking kernel's tiles stored by TMA (ldsopt/matmul/tma_store.py): NT f16 2048x2304x520 with
// an f32 output on 128x128 tiles is 16 x 18 = 288 tiles for 132 workgroups; the 64 KiB tile fits
// beside the 4 LDS tiles of 32 KiB, as the copy engine's boxes lay it out (1024-byte aligned, no
// pad). The output's map is built with the operands' (f32, the 128-byte swizzle). Each tile's
// epilogue waits for the boxes of the tile before to be read out of the stage, writes its
// pieces there, fences them to the async proxy, and thread 0 issues its 4 boxes of 32 columns
// as one bulk group; the workgroup's last tile, in whose rows the maps are, waits for every box
// written and is copied out by the threads. By default (tma-store=false) the threads store every
// tile from a padded stage.
// CHECK-LABEL: func.func @nt_f16_f32_tma_store
// CHECK:         %[[STAGE:.+]] = memref.alloc() alignment = 1024 {ldsopt.output_stage = {pad = 0 : i64, vec = 4 : i64}} : memref<128x128xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.block_id x upper_bound 132
// CHECK:         nvvm.tensormap.replace{{.*}}#nvvm.tensormap_elemtype<f32>
// CHECK:         scf.for %[[J:.+]] = %c0 to %[[COUNT:.+]] step %c1 {
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           %[[LAST_J:.+]] = arith.subi %[[COUNT]], %c1
// CHECK:           %[[LAST:.+]] = arith.cmpi eq, %[[J]], %[[LAST_J]]
// CHECK:           scf.if
// CHECK-NEXT:        nvvm.cp.async.bulk.wait_group 0 read
// CHECK:           gpu.barrier
// CHECK-COUNT-32:  vector.store %{{.+}}, %[[STAGE]]
// CHECK:           nvvm.fence.proxy <async.shared>, space = <cta>
// CHECK-NEXT:      gpu.barrier
// CHECK:           scf.if %[[LAST]] {
// CHECK-NEXT:        nvvm.cp.async.bulk.wait_group 0
// CHECK-NEXT:      } else {
// CHECK-COUNT-4:     nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:             nvvm.cp.async.bulk.commit.group
// CHECK:           scf.if %[[LAST]] {
// CHECK-NEXT:        gpu.barrier
// CHECK:             vector.load %[[STAGE]]
// On 128x256 tiles the 128 KiB f32 tile does not fit beside the 4 LDS tiles of 48 KiB: the stage
// holds a quarter of its columns (64, two boxes), and each tile leaves in 4 parts through it,
// each part waiting for the one before to be read out of the stage.
// PARTS-LABEL: func.func @nt_f16_f32_tma_store
// PARTS:         %[[STAGE:.+]] = memref.alloc() alignment = 1024 {ldsopt.output_stage = {pad = 0 : i64, vec = 4 : i64}} : memref<128x64xf32, #gpu.address_space<workgroup>>
// PARTS:         scf.for %{{.+}} = %c0 to %{{.+}} step %c1 {
// PARTS:           nvvm.cp.async.bulk.wait_group 0 read
// PARTS:           gpu.barrier
// PARTS-COUNT-16:  vector.store %{{.+}}, %[[STAGE]]
// PARTS-NEXT:      nvvm.fence.proxy <async.shared>, space = <cta>
// PARTS-NEXT:      gpu.barrier
// PARTS:           } else {
// PARTS-COUNT-2:     nvvm.cp.async.bulk.tensor.global.shared.cta
// PARTS-NEXT:        nvvm.cp.async.bulk.commit.group
// PARTS:             gpu.barrier
// PARTS-COUNT-8:     vector.load %[[STAGE]]
// PARTS-COUNT-3:   nvvm.cp.async.bulk.wait_group 0 read
// PARTS-NOT:       nvvm.cp.async.bulk.wait_group 0 read
// PARTS:         return
// With two part buffers (tma-store=double) the same 32 KiB hold two parts of 32 columns (one box
// each): 8 parts, each waiting only for the boxes of the part before the last (wait_group 1),
// part 1 written to the second buffer's columns and issued from its 16 KiB.
// DOUBLE-LABEL: func.func @nt_f16_f32_tma_store
// DOUBLE:         %[[STAGE:.+]] = memref.alloc() alignment = 1024 {{.+}} : memref<128x64xf32, #gpu.address_space<workgroup>>
// DOUBLE:         scf.for %{{.+}} = %c0 to %{{.+}} step %c1 {
// DOUBLE:           nvvm.cp.async.bulk.wait_group 1 read
// DOUBLE-COUNT-8:   vector.store %{{.+}}, %[[STAGE]]
// DOUBLE-NOT:       vector.store %{{.+}}, %[[STAGE]]
// DOUBLE:           nvvm.cp.async.bulk.tensor.global.shared.cta
// DOUBLE-NEXT:      nvvm.cp.async.bulk.commit.group
// DOUBLE:           nvvm.cp.async.bulk.wait_group 1 read
// DOUBLE:           %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %[[STAGE]]
// DOUBLE-NEXT:      arith.addi %[[BASE]], %c16384 : index
// DOUBLE:           nvvm.cp.async.bulk.tensor.global.shared.cta
// DOUBLE-COUNT-6:   nvvm.cp.async.bulk.wait_group 1 read
// DOUBLE-NOT:       nvvm.cp.async.bulk.wait_group {{.}} read
// DOUBLE:         return
// THREADS-LABEL: func.func @nt_f16_f32_tma_store
// THREADS:         memref.alloc() alignment = 16 {ldsopt.output_stage = {pad = 8 : i64, vec = 4 : i64}} : memref<128x136xf32, #gpu.address_space<workgroup>>
// THREADS-NOT:     nvvm.cp.async.bulk.tensor.global.shared.cta
func.func @nt_f16_f32_tma_store() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2048x520xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2304x520xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2048x2304xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<2048x520xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2048x520xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<2304x520xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2304x520xf16>
  %5 = tensor.empty() : tensor<2048x2304xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<2048x2304xf32>) -> tensor<2048x2304xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<2048x520xf16>, tensor<2304x520xf16>) outs(%6 : tensor<2048x2304xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<2048x2304xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<2048x2304xf32> into memref<2048x2304xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// An f16 output on 128x128 tiles: a 256-byte output row cannot hold both operand maps, so the
// operands are copied by cp.async and the kernel does not walk; its stage is the padded one,
// stored by the threads.
// CHECK-LABEL: func.func @nt_f16_cast_no_walk
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:         memref.alloc() alignment = 16 {ldsopt.output_stage = {pad = {{[0-9]+}} : i64, vec = 8 : i64}}
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:         gpu.block_id x upper_bound 18
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.global.shared.cta
func.func @nt_f16_cast_no_walk() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2048x520xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2304x520xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2048x2304xf16, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<2048x520xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2048x520xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<2304x520xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2304x520xf16>
  %5 = tensor.empty() : tensor<2048x2304xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<2048x2304xf32>) -> tensor<2048x2304xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<2048x520xf16>, tensor<2304x520xf16>) outs(%6 : tensor<2048x2304xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<2048x2304xf32>
  %e16 = tensor.empty() : tensor<2048x2304xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<2048x2304xf32>) outs(%e16 : tensor<2048x2304xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x2304xf16>
  iree_codegen.store_to_buffer %h, %2 : tensor<2048x2304xf16> into memref<2048x2304xf16, #hal.descriptor_type<storage_buffer>>
  return
}
