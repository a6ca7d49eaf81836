// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true tiles=128x128x8x8})' | filecheck %s --check-prefix=AUTO
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true lanes=cols k-pack=0 tiles=128x128x8x8})' | filecheck %s --check-prefix=XOR
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true lanes=cols row-xor=0 pad=8 swizzle=0 tiles=128x128x8x8})' | filecheck %s --check-prefix=PAD
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true rake-bits=128 tiles=128x128x8x8})' | filecheck %s --check-prefix=WIDE
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true lanes=rows k-pack=0 tiles=128x128x8x8}, ldsopt-matmul-lds{k-pack=0 tiles=128x128x8x8})' | filecheck %s --check-prefix=ROWS
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true copy=direct tiles=128x128x8x8}, ldsopt-matmul-lds{tiles=128x128x8x8})' | filecheck %s --check-prefix=DIRECT
// RUN: not lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose{copy=direct tiles=128x128x8x8})' 2>&1 | filecheck %s --check-prefix=NODMA
// RUN: not lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true lanes=diagonal tiles=128x128x8x8})' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true pad=3 row-xor=4 tiles=128x128x8x8})' 2>&1 | filecheck %s --check-prefix=NONE
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true tiles=128x128x8x8}, ldsopt-matmul-lds{tiles=128x128x8x8})' | filecheck %s --check-prefix=PREFETCH
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true prefetch=0 tiles=128x128x8x8}, ldsopt-matmul-lds{tiles=128x128x8x8})' | filecheck %s --check-prefix=NOPREFETCH
// RUN: lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose{tiles=128x128x8x8}, ldsopt-matmul-lds{tiles=128x128x8x8})' | filecheck %s --check-prefix=NOPREFETCH
// RUN: not lds-opt %s --target=gfx942 --pass-pipeline='builtin.module(ldsopt-inthread-transpose{prefetch=2 tiles=128x128x8x8})' 2>&1 | filecheck %s --check-prefix=PFAMD
// RUN: not lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true copy=direct prefetch=2 tiles=128x128x8x8})' 2>&1 | filecheck %s --check-prefix=PFDIRECT
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true tiles=64x64x8x4 workgroups-per-cu=1}, ldsopt-matmul-lds{tiles=64x64x8x4 workgroups-per-cu=1})' | filecheck %s --check-prefix=TILES
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true tiles=64x64x8x4 workgroups-per-cu=1}, ldsopt-matmul-lds)' | filecheck %s --check-prefix=TILES
// RUN: not lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{force=true tiles=64x64x8x4}, ldsopt-matmul-lds{tiles=128x128x8x8})' 2>&1 | filecheck %s --check-prefix=OTHERPLAN
// RUN: lds-opt %s --target=cuda --pass-pipeline='builtin.module(ldsopt-inthread-transpose{tiles=128x128x8x8})' | filecheck %s --check-prefix=LDMATRIX

// NN f16 256x256x64 on CUDA (mma.sync m16n8k16, warps of 32, 32 x 4 B banks). Unforced, the
// pass leaves it: ldsopt-matmul-lds reads the K-strided B by ldmatrix.trans, 16 bytes a lane,
// as wide as the transposed staging would (and faster on the H200).
// LDMATRIX-LABEL: func.func @nn_f16
// LDMATRIX-NOT:     ldsopt.staging
// LDMATRIX:         return
// Forced (`force=true` on every CUDA run here), B's layout options, each forcing part of the
// staging that the bank model otherwise picks.
// By default: fragment reads of two mma K steps, their K slots in k_order (16-byte reads of 8
// consecutive K), consecutive threads taking 2 K blocks of one N group, then along N (lane_rows
// 2: each global read instruction two whole 128-byte lines), a row XOR and the rotating swizzle
// of the read's 8 elements: no extra cycles on the first warp's 4 LDS writes (b64: 2 phases of
// 16 lanes) or its reads. Threads down all of K (lanes rows) read rows 4 apart in one
// instruction, so only a forced lanes=rows gets them (ROWS below).
// AUTO: B = {dims = ["k", "n"]{{.*}}k_order = "(2,4,4):(1,8,2)", k_pack = 2 : i64, lane_rows = 2 : i64, {{.*}}read_vector = 8 : i64, {{.*}}row_xor = 4 : i64, swizzle = "rotating<8,2,4>", thread_map = "(2,32,4):(512,4,1024)"
// AUTO-NOT: lanes = "rows"
// K in the natural order (k-pack=0), threads along N forced: ldmatrix reads the fragments, 8
// consecutive K a lane (16 bytes, as the packed reads), and gets the same layout.
// XOR: B = {dims = ["k", "n"]{{.*}}lane_rows = 2 : i64, {{.*}}read_vector = 8 : i64, {{.*}}row_xor = 4 : i64, swizzle = "rotating<8,2,4>", thread_map = "(2,32,4):(512,4,1024)"
// PAD: B = {dims = ["k", "n"]{{.*}}lds_shape = [2, 128, 40], {{.*}}pad = 8 : i64, {{.*}}swizzle = "none"
// rake-bits=128: 8 K rows (128 bits) of 2 N columns per thread, the 4 K blocks of an N pair on
// consecutive threads (lane_rows 4), rows r ^ (r / 2 % 2), no swizzle needed.
// WIDE: B = {dims = ["k", "n"]{{.*}}k_pack = 2 : i64, lane_rows = 4 : i64, {{.*}}rake = 8 : i64, {{.*}}row_xor = 2 : i64, swizzle = "none", thread_map = "(4,64,1):(1024,2,4096)", {{.*}}vector = 2 : i64}}
// lanes=rows: consecutive threads take consecutive 4-row K blocks of one 4-column N group: thread t
// reads K rows 4 * (t % 8) + i at N 4 * (t / 8).
// ROWS: memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}}lanes = "rows", {{.*}}thread_map = "(8,32):(512,4)"
// ROWS: %[[TID:.+]] = gpu.thread_id x
// ROWS: %[[KB:.+]] = arith.remui %[[TID]], %c8 : index
// ROWS-NEXT: %[[NB:.+]] = arith.divui %[[TID]], %c8 : index
// ROWS-NEXT: %[[K0:.+]] = arith.muli %[[KB]], %c4 : index
// ROWS-NEXT: %[[N0:.+]] = arith.muli %[[NB]], %c4 : index
// ROWS: %[[K:.+]] = arith.addi %c0, %[[K0]] : index
// ROWS-NEXT: %[[N:.+]] = arith.addi %{{.+}}, %[[N0]] : index
// ROWS: vector.transfer_read %{{.+}}[%[[K]], %[[N]]]{{.*}} : memref<64x256xf16, {{.*}}>, vector<4xf16>
// copy=direct: each raked row (4 f16, 8 bytes) is a cp.async into the thread's slots of a
// staging buffer (one tile, 4096 f16), the step's copies one group; after the group is waited
// for, the thread reads its 4 rows back, transposes them and stores the columns as before.
// DIRECT: memref.alloc() alignment = 16 {ldsopt.staging = {copy = "direct", dims = ["k", "n"], {{.*}} register_transpose = true
// DIRECT: %[[RAW:.+]] = memref.alloc() alignment = 16 : memref<1x4096xf16, #gpu.address_space<workgroup>>
// DIRECT: scf.for
// DIRECT-COUNT-4: nvgpu.device_async_copy %{{.+}}[%{{.+}}, %{{.+}}], %[[RAW]][%c0, %{{.+}}], 4 : memref<64x256xf16, #gpu.address_space<global>> to memref<1x4096xf16, #gpu.address_space<workgroup>>
// DIRECT: %[[G:.+]] = nvgpu.device_async_create_group
// DIRECT: nvgpu.mma.sync
// DIRECT: nvgpu.device_async_wait %[[G]]
// DIRECT-COUNT-4: vector.load %[[RAW]][%c0, %{{.+}}] alignment = 8 : memref<1x4096xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// DIRECT: vector.transpose {{.*}} : vector<4x4xf16> to vector<4x4xf16>
// DIRECT: gpu.barrier
// NODMA: error: ldsopt-inthread-transpose: copy=direct needs cp.async (CUDA sm_80+)
// BAD: <pass-pipeline>:1:{{[0-9]+}}: error: option 'lanes' of pass 'ldsopt-inthread-transpose' takes auto | cols | rows; got 'diagonal'
// NONE: error: ldsopt-inthread-transpose: no staging of operand B has the forced lanes, row-xor, pad and swizzle
// The rake's L1 prefetch on CUDA (prefetch = 2 by default there): each K step kt, before its
// loads of tile kt+1, every raked row of tile kt+2 (K offset clamped to the last tile) is
// prefetched into L1 at the binding's address (read once, before the loop) + 512 bytes a row
// + 2 a column;
// A, not raked, is not prefetched. prefetch=0 and gfx942: no prefetch.
// PREFETCH: memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}}prefetch = 2 : i64, rake = 4
// PREFETCH: %[[PTR:[a-z_0-9]+]] = memref.extract_aligned_pointer_as_index %[[B:[0-9]+]] : memref<64x256xf16
// PREFETCH: scf.for %[[KT:[a-z_0-9]+]] =
// PREFETCH: %[[AHEAD:[0-9]+]] = arith.addi %[[KT]], %c2 : index
// PREFETCH-NEXT: %[[K0:[0-9]+]] = arith.muli %[[AHEAD]], %c32 : index
// PREFETCH-NEXT: arith.minui %[[K0]], %c32 : index
// PREFETCH: %[[ROW:[0-9]+]] = arith.muli %{{[0-9]+}}, %c512{{[_0-9]*}} : index
// PREFETCH-NEXT: %[[ROWB:[0-9]+]] = arith.addi %c0{{[_0-9]*}}, %[[ROW]] : index
// PREFETCH: %[[COL:[0-9]+]] = arith.muli %{{[0-9]+}}, %c2{{[_0-9]*}} : index
// PREFETCH-NEXT: %[[OFF:[0-9]+]] = arith.addi %[[ROWB]], %[[COL]] : index
// PREFETCH-NEXT: %[[ADDR:[0-9]+]] = arith.addi %[[PTR]], %[[OFF]] : index
// PREFETCH-NEXT: %[[I64:[0-9]+]] = arith.index_cast %[[ADDR]] : index to i64
// PREFETCH-NEXT: %[[P:[0-9]+]] = llvm.inttoptr %[[I64]] : i64 to !llvm.ptr<1>
// PREFETCH-NEXT: llvm.inline_asm has_side_effects "prefetch.global.L1 [$0];", "l" %[[P]] : (!llvm.ptr<1>) -> ()
// PREFETCH-COUNT-3: llvm.inline_asm has_side_effects "prefetch.global.L1 [$0];", "l"
// PREFETCH-NOT: llvm.inline_asm
// PREFETCH: vector.transfer_read %[[B]]
// PREFETCH-NOT: llvm.inline_asm
// PREFETCH: gpu.barrier
// NOPREFETCH-NOT: prefetch
// PFAMD: error: ldsopt-inthread-transpose: prefetch=2 needs a global -> L1 prefetch (CUDA)
// PFDIRECT: <pass-pipeline>:1:{{[0-9]+}}: error: option 'prefetch' of pass 'ldsopt-inthread-transpose': prefetch=2 needs copy=registers
// The plan options (ldsopt/matmul/options.py) plan the pass too: a 64x64 tile of 128 threads at
// one workgroup per SM (no nvvm.minctasm), B raked by those 128 threads; ldsopt-matmul-lds
// follows the plan recorded with the staging, given the same options or none; one that
// contradicts it is a located error.
// TILES: #translation = #iree_codegen.translation_info<{{.*}}workgroup_size = [128, 1, 1]
// TILES: func.func @nn_f16() attributes {ldsopt.bank_conflicts = {{.*}}, ldsopt.lowered_by = ["ldsopt-inthread-transpose", "ldsopt-matmul-lds"], translation_info = #translation}
// TILES: memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["k", "n"], {{.*}}lds_shape = [2, 64, 32], {{.*}}rake = 4 : i64, {{.*}}register_transpose = true, {{.*}}threads = 128 : i64, tile = [32, 64]
// OTHERPLAN: options.mlir:{{[0-9]+}}:{{[0-9]+}}: error: ldsopt-matmul-lds: option tiles=128x128x8x8 contradicts the plan ldsopt-inthread-transpose recorded ({{.*}}tiling = "64x64x8x4"{{.*}}); give the plan options to the first pass that plans the matmul
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
