// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-dtl-layout{tiles=64x64x4x4}, ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-dtl-layout{layout=perm tiles=64x64x4x4}, ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s --check-prefix=PERM
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-dtl-layout{layout=pad tiles=64x64x4x4}, ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s --check-prefix=PAD
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-dtl-layout{tiles=64x64x4x4}, ldsopt-matmul-lds{carry-fragments=false tiles=64x64x4x4})' | filecheck %s --check-prefix=CUDA
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-dtl-layout{lane-bytes=4 tiles=64x64x4x4}, ldsopt-matmul-lds{carry-fragments=false tiles=64x64x4x4})' | filecheck %s --check-prefix=CUDA4
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-dtl-layout{stages=3 tiles=64x64x4x4}, ldsopt-matmul-lds{carry-fragments=false stages=3 tiles=64x64x4x4})' | filecheck %s --check-prefix=STAGES
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-dtl-layout{stages=4 tiles=64x64x4x4}, ldsopt-matmul-lds{stages=4 tiles=64x64x4x4})' | filecheck %s --check-prefix=STAGES4

// NN f16 96x160x64 on gfx942 (MFMA 16x16x16, 4 waves of 64; tiles A 64x32 K-contiguous, B 32x64
// N-contiguous). Both operands are copied global -> LDS by amdgpu.gather_to_lds, one 4-byte lane
// (vector<2xf16>) per chunk c = tid + 256 j, from the binding relabelled as a fat raw buffer; no
// register round trip (no LDS transfer_write). The bank model picks the blocked rotation for A
// (its MFMA reads of 4 K run down 16 rows 64 B apart) and the perpDim permutation with block
// padding for B.
// CHECK-LABEL: func.func @nn_f16
// CHECK-SAME:    ldsopt.bank_conflicts = {A = {reads = 0 : i64, stores = 0 : i64}, B = {reads = 0 : i64, stores = 0 : i64}}
// CHECK-SAME:    ldsopt.dtl = {A = "direct rotation<2,8,4>", B = "direct perm<16,8>+block_pad<512,16>"}
// CHECK:         %[[LA:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {copy = "direct", {{.*}} lds_layout = "rotation<2,8,4>", {{.*}} lds_shape = [2, 2048], {{.*}} vector = 2 : i64}} : memref<2x2048xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[LB:.+]] = memref.alloc() alignment = 16 {ldsopt.staging = {copy = "direct", {{.*}} lds_layout = "perm<16,8>+block_pad<512,16>", {{.*}} lds_shape = [2, 2096], {{.*}}} : memref<2x2096xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[TID:.+]] = gpu.thread_id x
// CHECK:         %[[SA:.+]] = memref.memory_space_cast %{{.+}} : memref<96x64xf16, #hal.descriptor_type<storage_buffer>> to memref<96x64xf16, #amdgpu.address_space<fat_raw_buffer>>
// A's chunk 0: storage row tid / 16 and col 2 (tid % 16); the source chunk is rotated back by
// (row / 2) & 7 chunks of 4 (the inverse rotation); the LDS base is 2 c (no padding).
// CHECK:         %[[ROW:.+]] = arith.shrui %[[TID]], %c4 : index
// CHECK-NEXT:    %[[LANE:.+]] = arith.andi %[[TID]], %c15 : index
// CHECK-NEXT:    %[[COL:.+]] = arith.muli %[[LANE]], %c2 : index
// CHECK-NEXT:    %[[ROT:.+]] = arith.shrui %[[ROW]], %c1 : index
// CHECK-NEXT:    %[[ROT7:.+]] = arith.andi %[[ROT]], %c7 : index
// CHECK-NEXT:    %[[K:.+]] = arith.shrui %[[COL]], %c2 : index
// CHECK-NEXT:    %[[E:.+]] = arith.andi %[[COL]], %c3 : index
// CHECK-NEXT:    %[[BACK:.+]] = arith.subi %c8, %[[ROT7]] : index
// CHECK:         %[[SRCCOL:.+]] = arith.addi %{{.+}}, %[[E]] : index
// CHECK-NEXT:    %[[DEST:.+]] = arith.muli %[[TID]], %c2 : index
// The M/N index is clamped inside M = 96 (rows past M feed outputs never stored).
// CHECK:         %[[GM:.+]] = arith.minui %{{.+}}, %c95 : index
// CHECK-NEXT:    %[[GK:.+]] = arith.addi %c0, %[[SRCCOL]] : index
// CHECK-NEXT:    amdgpu.gather_to_lds %[[SA]][%[[GM]], %[[GK]]], %[[LA]][%c0, %[[DEST]]] : vector<2xf16>, memref<96x64xf16, #amdgpu.address_space<fat_raw_buffer>>, memref<2x2048xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-3: amdgpu.gather_to_lds %[[SA]]
// CHECK-NOT:     amdgpu.memory_counter_wait
// CHECK-COUNT-4: amdgpu.gather_to_lds
// CHECK-NEXT:    amdgpu.memory_counter_wait load(0)
// CHECK-NEXT:    gpu.barrier
// The K loop overlaps copy and math: step kt first starts the copies of tile kt+1 into the other
// LDS tile (%[[NXT]]), then reads and multiplies tile kt, then waits for the copies (vmcnt(0))
// before the one barrier of the step.
// CHECK:         scf.for
// CHECK:           %[[NXT:.+]] = arith.remui %{{.+}}, %c2 : index
// CHECK-COUNT-4:   amdgpu.gather_to_lds %[[SA]][%{{.+}}, %{{.+}}], %[[LA]][%[[NXT]], %{{.+}}]
// CHECK-COUNT-4:   amdgpu.gather_to_lds {{.*}}, %[[LB]][%[[NXT]], %{{.+}}]
// CHECK-NOT:       amdgpu.memory_counter_wait
// A's fragment read: the rotation forward, (k + (row / 2) & 7) & 7.
// Fragment reads state their alignment (4 f16 = 8 bytes: every layout keeps reads aligned).
// CHECK:           arith.shrui %{{.+}}, %c1 : index
// CHECK-NEXT:      %[[R:.+]] = arith.andi %{{.+}}, %c7 : index
// CHECK-NEXT:      %[[RK:.+]] = arith.shrui %{{.+}}, %c2 : index
// CHECK-NEXT:      arith.andi %{{.+}}, %c3 : index
// CHECK-NEXT:      arith.andi %[[RK]], %c7 : index
// CHECK-NEXT:      arith.subi
// CHECK-NEXT:      arith.addi %[[RK]], %[[R]] : index
// CHECK:           vector.load %[[LA]][%{{.+}}, %{{.+}}] alignment = 8 : memref<2x2048xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK:           amdgpu.mfma 16x16x16
// CHECK-NOT:       amdgpu.gather_to_lds
// CHECK:           amdgpu.memory_counter_wait load(0)
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     vector.transfer_write {{.*}}memref<2x{{[0-9]+}}xf16, #gpu.address_space<workgroup>>
// CHECK:         return

// The permutation (B: blocks of 16 K rows, S = 8, S' = 2), forward on the global side,
// I' = 8 (I % 2) + I / 2, and inverse on the fragment reads, I = 2 (I' % 8) + I' / 8; the
// padding goes between 512-element (1 KiB = 4 wave loads) blocks: dest = c * 2 + (c / 256) * 16.
// PERM-LABEL: func.func @nn_f16
// PERM-SAME:    B = "direct perm<16,8>+block_pad<512,16>"
// PERM:         %[[TID:.+]] = gpu.thread_id x
// PERM:         memref.memory_space_cast %{{.+}} : memref<64x160xf16
// PERM-NEXT:    %[[ROW:.+]] = arith.shrui %[[TID]], %c5 : index
// PERM-NEXT:    %[[LANE:.+]] = arith.andi %[[TID]], %c31 : index
// PERM-NEXT:    arith.muli %[[LANE]], %c2 : index
// PERM-NEXT:    %[[BASE:.+]] = arith.shrui %[[ROW]], %c4 : index
// PERM-NEXT:    %[[J:.+]] = arith.andi %[[ROW]], %c15 : index
// PERM-NEXT:    %[[Q:.+]] = arith.shrui %[[J]], %c1 : index
// PERM-NEXT:    %[[R:.+]] = arith.andi %[[J]], %c1 : index
// PERM-NEXT:    %[[R8:.+]] = arith.muli %[[R]], %c8 : index
// PERM-NEXT:    %[[W:.+]] = arith.addi %[[R8]], %[[Q]] : index
// PERM-NEXT:    %[[B16:.+]] = arith.muli %[[BASE]], %c16 : index
// PERM-NEXT:    %[[SRCROW:.+]] = arith.addi %[[B16]], %[[W]] : index
// PERM-NEXT:    %[[BLK:.+]] = arith.shrui %[[TID]], %c8 : index
// PERM-NEXT:    %[[U:.+]] = arith.muli %[[TID]], %c2 : index
// PERM-NEXT:    %[[PADS:.+]] = arith.muli %[[BLK]], %c16 : index
// PERM-NEXT:    %[[DEST:.+]] = arith.addi %[[PADS]], %[[U]] : index
// PERM:         %[[GR:.+]] = arith.addi %c0, %[[SRCROW]] : index
// PERM:         amdgpu.gather_to_lds %{{.+}}[%[[GR]], %{{.+}}], %{{.+}}[%c0, %[[DEST]]] : vector<2xf16>, memref<64x160xf16
// PERM:         scf.for
// PERM:           %[[J2:.+]] = arith.andi %{{.+}}, %c15 : index
// PERM-NEXT:      %[[Q2:.+]] = arith.shrui %[[J2]], %c3 : index
// PERM-NEXT:      %[[R2:.+]] = arith.andi %[[J2]], %c7 : index
// PERM-NEXT:      %[[R22:.+]] = arith.muli %[[R2]], %c2 : index
// PERM-NEXT:      arith.addi %[[R22]], %[[Q2]] : index
// PERM-NEXT:      arith.muli %{{.+}}, %c16 : index
// PERM-NEXT:      %[[LROW:.+]] = arith.addi
// PERM-NEXT:      %[[LROWE:.+]] = arith.muli %[[LROW]], %c64 : index
// PERM-NEXT:      %[[FLAT:.+]] = arith.addi %[[LROWE]], %{{.+}} : index
// PERM-NEXT:      %[[FB:.+]] = arith.shrui %[[FLAT]], %c9 : index
// PERM-NEXT:      %[[FP:.+]] = arith.muli %[[FB]], %c16 : index
// PERM-NEXT:      %[[OFF:.+]] = arith.addi %[[FP]], %[[FLAT]] : index
// PERM:           vector.transfer_read %{{.+}}[%{{.+}}, %[[OFF]]]{{.*}} : memref<2x2096xf16, #gpu.address_space<workgroup>>, vector<1xf16>

// Padding only: blocks of whole wave loads (the M0 rule: 128 f16 = 256 B for A); no pad after the last block.
// PAD-LABEL: func.func @nn_f16
// The bank model's price of the padding, recorded by the kernel: A's MFMA reads conflict, which the
// layout picked above (the rotation) avoids.
// PAD-SAME:    ldsopt.bank_conflicts = {A = {reads = 4 : i64, stores = 0 : i64}, B = {reads = 0 : i64, stores = 0 : i64}}
// PAD-SAME:    A = "direct block_pad<128,4>", B = "direct block_pad<256,16>"
// PAD:         memref.alloc() alignment = 16 {{.*}} : memref<2x2108xf16, #gpu.address_space<workgroup>>
// PAD:         memref.alloc() alignment = 16 {{.*}} : memref<2x2160xf16, #gpu.address_space<workgroup>>

// CUDA (sm_89): cp.async of 16-byte lanes by default (8 f16, `.cg`: bypassL1), one chunk of each
// 64x32 tile per thread, one group of both operands' copies per K step. B (K x N) is read by
// ldmatrix.trans, 8 K rows at one N a phase: a rotation by one 16-byte unit a row spreads them.
// CUDA-LABEL: func.func @nn_f16
// CUDA-SAME:    ldsopt.dtl = {A = "direct rotation<2,4,8>", B = "direct rotation<1,8,8>"}
// CUDA:         %[[SA:.+]] = memref.memory_space_cast %{{.+}} : memref<96x64xf16, #hal.descriptor_type<storage_buffer>> to memref<96x64xf16, #gpu.address_space<global>>
// CUDA:         %[[T0:.+]] = nvgpu.device_async_copy %[[SA]][%{{.+}}, %{{.+}}], %{{.+}}[%c0, %{{.+}}], 8 bypassL1 : memref<96x64xf16, #gpu.address_space<global>> to memref<2x2048xf16, #gpu.address_space<workgroup>>
// CUDA-NOT:     nvgpu.device_async_create_group
// CUDA:         %[[T1:.+]] = nvgpu.device_async_copy {{.*}}, 8 bypassL1 : memref<64x160xf16
// CUDA-NEXT:    %[[G:.+]] = nvgpu.device_async_create_group %[[T0]], %[[T1]]
// CUDA-NEXT:    nvgpu.device_async_wait %[[G]]
// CUDA-NEXT:    gpu.barrier
// With lane-bytes=4: 4-byte `.ca` copies (2 f16), four per operand and thread.
// CUDA4-LABEL: func.func @nn_f16
// CUDA4:         %[[T0:.+]] = nvgpu.device_async_copy %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}}[%c0, %{{.+}}], 2 : memref<96x64xf16, #gpu.address_space<global>>
// CUDA4-COUNT-7: nvgpu.device_async_copy {{.*}}, 2 : memref
// CUDA4-NEXT:    %[[G:.+]] = nvgpu.device_async_create_group %[[T0]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}
// CUDA4-NEXT:    nvgpu.device_async_wait %[[G]]
// In the loop the step's group (tile kt+1) is started before the math of tile kt and waited for
// after it, right before the barrier.
// CUDA:         scf.for
// CUDA:           nvgpu.device_async_copy
// CUDA:           %[[GL:.+]] = nvgpu.device_async_create_group
// CUDA-NOT:       nvgpu.device_async_wait
// CUDA:           nvgpu.ldmatrix %{{[a-z_0-9]+}}[%{{[a-z_0-9]+}}, %{{[a-z_0-9]+}}] numTiles = 4 transpose = true : memref<2x2048xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CUDA:           nvgpu.ldmatrix %{{[a-z_0-9]+}}[%{{[a-z_0-9]+}}, %{{[a-z_0-9]+}}] numTiles = 4 transpose = false : memref<2x2048xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CUDA-NEXT:      nvgpu.mma.sync
// CUDA-NOT:       nvgpu.device_async_copy
// CUDA:           nvgpu.device_async_wait %[[GL]]
// CUDA-NEXT:      gpu.barrier
// CUDA-NEXT:      scf.yield

// stages=3 (CUDA): three LDS tiles per operand. The prologue starts tiles 0 and 1, a cp.async
// group each, and waits for tile 0's only (numGroups = 1: tile 1's stays in flight across the
// barrier). Step kt starts tile kt+2 into LDS tile (kt+2) % 3 (last read by step kt-1, before
// the barrier that ended it), multiplies tile kt % 3, then waits for tile kt+1's group.
// STAGES-LABEL: func.func @nn_f16
// STAGES:         %[[LA:.+]] = memref.alloc() alignment = 16 {{.*}}lds_shape = [3, 2048]{{.*}} : memref<3x2048xf16, #gpu.address_space<workgroup>>
// STAGES:         %[[LB:.+]] = memref.alloc() alignment = 16 {{.*}} : memref<3x2048xf16, #gpu.address_space<workgroup>>
// STAGES:         nvgpu.device_async_copy {{.*}}, %[[LA]][%c0, %{{.+}}], 8
// STAGES:         nvgpu.device_async_copy {{.*}}, %[[LB]][%c0, %{{.+}}], 8
// STAGES-NEXT:    nvgpu.device_async_create_group
// STAGES-NOT:     nvgpu.device_async_wait
// STAGES:         nvgpu.device_async_copy {{.*}}, %[[LA]][%c1, %{{.+}}], 8
// STAGES:         nvgpu.device_async_copy {{.*}}, %[[LB]][%c1, %{{.+}}], 8
// STAGES-NEXT:    %[[G1:.+]] = nvgpu.device_async_create_group
// STAGES-NEXT:    nvgpu.device_async_wait %[[G1]] numGroups = 1
// STAGES-NEXT:    gpu.barrier
// STAGES:         scf.for %[[KT:.+]] = %c0 to %c2
// STAGES-NEXT:      %[[AHEAD:.+]] = arith.addi %[[KT]], %c2
// STAGES:           %[[TO:.+]] = arith.remui %[[AHEAD]], %c3
// STAGES:           nvgpu.device_async_copy {{.*}}, %[[LA]][%[[TO]], %{{.+}}], 8
// STAGES:           nvgpu.device_async_copy {{.*}}, %[[LB]][%[[TO]], %{{.+}}], 8
// STAGES-NEXT:      %[[G:.+]] = nvgpu.device_async_create_group
// STAGES-NEXT:      %[[CUR:.+]] = arith.remui %[[KT]], %c3
// STAGES:           nvgpu.ldmatrix %[[LB]][%[[CUR]], %{{.+}}]
// STAGES:           nvgpu.mma.sync
// STAGES-NOT:       nvgpu.device_async_copy
// STAGES:           nvgpu.device_async_wait %[[G]] numGroups = 1
// STAGES-NEXT:      gpu.barrier
// STAGES-NEXT:      scf.yield

// stages=4 (gfx942): tiles 0-2 start in the prologue (8 gather_to_lds a tile per thread); the
// waits leave the two newer tiles' 16 loads in flight (vmcnt: loads return in order).
// STAGES4-LABEL: func.func @nn_f16
// STAGES4:         memref.alloc() alignment = 16 {{.*}} : memref<4x2048xf16, #gpu.address_space<workgroup>>
// STAGES4-COUNT-8: amdgpu.gather_to_lds {{.*}}, %{{.+}}[%c0, %{{.+}}]
// STAGES4-COUNT-8: amdgpu.gather_to_lds {{.*}}, %{{.+}}[%c1, %{{.+}}]
// STAGES4-COUNT-8: amdgpu.gather_to_lds {{.*}}, %{{.+}}[%c2, %{{.+}}]
// STAGES4-NEXT:    amdgpu.memory_counter_wait load(16)
// STAGES4-NEXT:    gpu.barrier
// STAGES4:         scf.for
// STAGES4:           amdgpu.mfma
// STAGES4:           amdgpu.memory_counter_wait load(16)
// STAGES4-NEXT:      gpu.barrier

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

// Left alone on gfx942: K = 48 is not a multiple of the K step (32 f16): a DMA cannot zero-fill
// the tail. cp.async can: a chunk past K copies no source element (srcElements = 0), its K index
// clamped inside K (48 - 8).
// CUDA-LABEL: func.func @k_tail
// CUDA-SAME:    ldsopt.dtl = {A = "direct rotation<2,4,8>", B = "direct rotation<1,8,8>"}
// CUDA:         %[[KC:.+]] = arith.minui %[[K:.+]], %c40 : index
// CUDA-NEXT:    %[[IN:.+]] = arith.cmpi ult, %[[K]], %c48 : index
// CUDA:         %[[N:.+]] = arith.select %[[IN]], %c8{{.*}}, %c0{{.*}} : index
// CUDA-NEXT:    nvgpu.device_async_copy %{{.+}}[%{{.+}}, %[[KC]]], %{{.+}}[%c0, %{{.+}}], 8, %[[N]] bypassL1 : memref<96x48xf16
// CHECK-LABEL: func.func @k_tail
// CHECK-SAME:    ldsopt.dtl = {A = "left alone: K = 48 has a tail past the K step 32: a DMA cannot zero-fill it", B = "left alone: K = 48
// CHECK-NOT:     amdgpu.gather_to_lds
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"]
// CHECK-NOT:     amdgpu.gather_to_lds
// CHECK:         return

func.func @k_tail() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x48xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<48x160xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<96x160xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<96x48xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x48xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<48x160xf16, #hal.descriptor_type<storage_buffer>> -> tensor<48x160xf16>
  %5 = tensor.empty() : tensor<96x160xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<96x160xf32>) -> tensor<96x160xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<96x48xf16>, tensor<48x160xf16>) outs(%6 : tensor<96x160xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
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

// Left alone: N = 161 f16 rows are not whole 4-byte lanes (the only transfer size gfx942's DTL
// supports without zero-extension): odd rows start off a lane, so no run longer than an element
// is aligned; A still goes direct.
// CHECK-LABEL: func.func @odd_n
// CHECK-SAME:    ldsopt.dtl = {A = "direct rotation<2,8,4>", B = "left alone: its aligned contiguous run of 1 elements (its extent, as far as the runs' starts are aligned) is not whole 4-byte lanes (the transfer size the target supports)"}
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {copy = "direct"
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"]
// CHECK:         amdgpu.gather_to_lds {{.*}} memref<96x64xf16
// CHECK-NOT:     amdgpu.gather_to_lds {{.*}} memref<64x161xf16
// CHECK:         vector.transfer_write {{.*}} : vector<{{[0-9]+}}xf16>, memref<2x32x{{[0-9]+}}xf16, #gpu.address_space<workgroup>>

func.func @odd_n() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x161xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<96x161xf32, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %0 : memref<96x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x64xf16>
  %4 = iree_codegen.load_from_buffer %1 : memref<64x161xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x161xf16>
  %5 = tensor.empty() : tensor<96x161xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<96x161xf32>) -> tensor<96x161xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %4 : tensor<96x64xf16>, tensor<64x161xf16>) outs(%6 : tensor<96x161xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, padding = [32, 32, 64], promote_operands = [0, 1], reduction = [0, 0, 4], subgroup = [1, 2, 0], workgroup = [32, 32, 0]}>} {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %8 = arith.extf %in : f16 to f32
    %9 = arith.extf %in_0 : f16 to f32
    %10 = arith.mulf %8, %9 : f32
    %11 = arith.addf %out, %10 : f32
    linalg.yield %11 : f32
  } -> tensor<96x161xf32>
  iree_codegen.store_to_buffer %7, %2 : tensor<96x161xf32> into memref<96x161xf32, #hal.descriptor_type<storage_buffer>>
  return
}
