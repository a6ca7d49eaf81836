// RUN: lds-opt %s --split-input-file --target=cuda-sm90a \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=128x256x8x16 persistent=true})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=128x256x8x16 persistent=true tma=false})' \
// RUN:   | filecheck %s --check-prefix=CPASYNC
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=128x256x8x16})' | filecheck %s --check-prefix=AUTO

// The persistent wgmma kernel (ldsopt/matmul/persistent.py): NT f16 2048x2304x520 on 128x256
// tiles is 16 x 9 = 144 tiles, more than the target's 132 SMs, so 132 workgroups walk them
// (tile w, then w + 132). The maps are published in the rows of each workgroup's last tile.
// The K pipeline counts the walk's iterations: each tile's K loop (9 steps) runs at iteration
// j * 9 + kt, waits for the next iteration's tile below all of this workgroup's iterations, and
// issues iteration + 3 (its K tile and output tile from that iteration), so the last steps
// of a tile issue the next tile's first K tiles; then `wait.group 0` and the tile's stores at
// its own origin, inside the walk. The accumulators start from zeros before each K loop (no
// branch inside it: ptxas would serialize the wgmmas). Without TMA the kernel stays a plain
// grid, saying why.
// By default (persistent=auto) the same walk, and a kernel that cannot walk stays a plain grid
// without saying so.
// AUTO-LABEL: func.func @nt_f16_walk
// AUTO-NOT:     ldsopt.persistent_refused
// AUTO:         gpu.block_id x upper_bound 132
// CHECK-LABEL: func.func @nt_f16_walk
// CHECK:         gpu.block_id x upper_bound 132
// CHECK:         %[[LEFT:.+]] = arith.subi %c143, %{{.+}}
// CHECK:         %[[MORE:.+]] = arith.divui %[[LEFT]], %c132
// CHECK:         %[[COUNT:.+]] = arith.addi %[[MORE]], %c1
// CHECK:         %[[ITERATIONS:.+]] = arith.muli %[[COUNT]], %c9
// CHECK:         scf.for %[[J:.+]] = %c0 to %[[COUNT]] step %c1 {
// CHECK:           %[[FIRST:.+]] = arith.muli %[[J]], %c9
// CHECK:           scf.for %[[KT:.+]] = %c0 to %c9 step %c1 iter_args
// CHECK:             %[[IT:.+]] = arith.addi %[[FIRST]], %[[KT]]
// CHECK-COUNT-4:     nvvm.wgmma.mma_async
// CHECK:             nvvm.wgmma.wait.group.sync.aligned 1
// CHECK:             %[[NEXT:.+]] = arith.addi %[[IT]], %c1
// CHECK:             arith.cmpi ult, %[[NEXT]], %[[ITERATIONS]]
// CHECK:             nvvm.mbarrier.try_wait.parity
// CHECK:             gpu.barrier
// CHECK:             %[[AHEAD:.+]] = arith.addi %[[IT]], %c3
// CHECK:             arith.divui %[[AHEAD]], %c9
// CHECK:             arith.cmpi ult, %[[AHEAD]], %[[ITERATIONS]]
// CHECK:             nvvm.mbarrier.arrive.expect_tx
// CHECK:             nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           arith.muli %[[J]], %c132
// CHECK:           vector.store
// CPASYNC-LABEL: func.func @nt_f16_walk
// CPASYNC-SAME:    ldsopt.persistent_refused = "its operands are not copied by TMA"
// CPASYNC:         nvgpu.device_async_copy
func.func @nt_f16_walk() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
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

// 8 x 9 = 72 tiles: no more than the SMs, nothing to walk; a plain grid, saying why.
// AUTO-LABEL: func.func @nt_f16_few_tiles
// AUTO-NOT:     ldsopt.persistent_refused
// AUTO:         nvvm.wgmma.mma_async
// CHECK-LABEL: func.func @nt_f16_few_tiles
// CHECK-SAME:    ldsopt.persistent_refused = "it has no more tiles than SMs"
// CHECK:         gpu.block_id x upper_bound 9
func.func @nt_f16_few_tiles() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1024x520xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2304x520xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<1024x2304xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<1024x520xf16, #hal.descriptor_type<storage_buffer>> -> tensor<1024x520xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<2304x520xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2304x520xf16>
  %5 = tensor.empty() : tensor<1024x2304xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<1024x2304xf32>) -> tensor<1024x2304xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<1024x520xf16>, tensor<2304x520xf16>) outs(%6 : tensor<1024x2304xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<1024x2304xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<1024x2304xf32> into memref<1024x2304xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A product that sums A's rows for its consumer (ldsopt-fold-norm's form; 16 x 9 = 144 tiles):
// the K loop carries the sums, which the walk does not; a plain grid, saying why.
// AUTO-LABEL: func.func @layernorm_rows_walk
// AUTO-NOT:     ldsopt.persistent_refused
// AUTO:         nvvm.wgmma.mma_async
// CHECK-LABEL: func.func @layernorm_rows_walk
// CHECK-SAME:    ldsopt.persistent_refused = "it sums A's rows or its output's chunks (ldsopt-fold-norm's forms)"
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @layernorm_rows_walk() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 512.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2048x512xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<512x2304xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2304xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2304xf32, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : memref<2048x2304xf16, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2048x512xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2048x512xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<512x2304xf16, #hal.descriptor_type<storage_buffer>> -> tensor<512x2304xf16>
  %c = iree_codegen.load_from_buffer %2 : memref<2304xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2304xf32>
  %d = iree_codegen.load_from_buffer %3 : memref<2304xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2304xf32>
  %er = tensor.empty() : tensor<2048xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<2048xf32>) -> tensor<2048xf32>
  %ea = tensor.empty() : tensor<2048x2304xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<2048x2304xf32>) -> tensor<2048x2304xf32>
  %eo = tensor.empty() : tensor<2048x2304xf16>
  %s:3 = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, 0)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %x : tensor<2048x512xf16>, tensor<2048x512xf16>) outs(%fr, %fr, %fr : tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>) {
  ^bb0(%v: f16, %v0: f16, %s0: f32, %s1: f32, %s2: f32):
    %a = arith.extf %v : f16 to f32
    %a0 = arith.extf %v0 : f16 to f32
    %dd = arith.subf %a, %a0 : f32
    %n0 = arith.addf %s0, %a : f32
    %n1 = arith.addf %s1, %dd : f32
    %sq = arith.mulf %dd, %dd : f32
    %n2 = arith.addf %s2, %sq : f32
    linalg.yield %n0, %n1, %n2 : f32, f32, f32
  } -> (tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>)
  %mm = linalg.matmul ins(%x, %w : tensor<2048x512xf16>, tensor<512x2304xf16>) outs(%fa : tensor<2048x2304xf32>) -> tensor<2048x2304xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %s#0, %s#1, %s#2, %c, %d : tensor<2048x2304xf32>, tensor<2048xf32>, tensor<2048xf32>, tensor<2048xf32>, tensor<2304xf32>, tensor<2304xf32>) outs(%eo : tensor<2048x2304xf16>) {
  ^bb0(%acc: f32, %r0: f32, %r1: f32, %r2: f32, %cn: f32, %dn: f32, %o: f16):
    %mu = arith.divf %r0, %k : f32
    %m1 = arith.divf %r1, %k : f32
    %m2 = arith.divf %r2, %k : f32
    %m1s = arith.mulf %m1, %m1 : f32
    %var = arith.subf %m2, %m1s : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %mc = arith.mulf %mu, %cn : f32
    %t = arith.subf %acc, %mc : f32
    %u = arith.mulf %rs, %t : f32
    %z = arith.addf %u, %dn : f32
    %h = arith.truncf %z : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2048x2304xf16>
  iree_codegen.store_to_buffer %y, %4 : tensor<2048x2304xf16> into memref<2048x2304xf16, #hal.descriptor_type<storage_buffer>>
  return
}
