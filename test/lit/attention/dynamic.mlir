// ldsopt-attention on dispatches of dynamic query rows (M) and keys (K2), their extents workload
// ordinals read at run time (PyTorch exports of a dynamic sequence, `lds-run --keep-dynamic`):
// planned for a nominal length, always ragged (rows past M computed on zeros and not stored, keys
// past K2 -inf and read as zeros or clamped), the key tiles ceil(K2 / BN) counted at run time and
// the count region launching ceil(M / BM) query tiles. Other dynamic extents are left to IREE.
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-attention, canonicalize, cse)' | filecheck %s --check-prefix=FMA
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-attention, canonicalize, cse)' | filecheck %s --check-prefix=MMA
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-attention, canonicalize, cse)' | filecheck %s --check-prefix=WGMMA
// RUN: lds-opt %s --split-input-file --target=gfx942 --pass-pipeline='builtin.module(ldsopt-attention, canonicalize, cse)' | filecheck %s --check-prefix=MFMA
// RUN: lds-opt %s --split-input-file --verify-diagnostics --remarks=missed --target=cuda --pass-pipeline='builtin.module(ldsopt-attention)'

// M and K2 of their own ordinals (a prefill against a cache of another length), 6 (batch x heads) x
// M x K2 x 64, f16, as IREE binds it on CUDA. The FMA kernel (lavapipe): 16 rows a workgroup; the
// clamp of a row, max(M, 1) - 1, made once after M; Q's rows guarded against M (zeros past it);
// ceil(K2 / 16) key tiles, each K and V row read guarded against K2, each score past it -inf; the
// output's rows guarded; the count region ceil(M / 16) query tiles of the 6 groups.
// FMA-LABEL: func.func @rows_keys_f16
// FMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// FMA:         %[[M:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// FMA-NEXT:    %[[MAXM:.+]] = arith.maxui %[[M]], %c1 : index
// FMA-NEXT:    %[[LASTM:.+]] = arith.subi %[[MAXM]], %c1 : index
// FMA-NEXT:    %[[K2:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 1 : index
// FMA:         %[[UP:.+]] = arith.addi %[[K2]], %c15 : index
// FMA-NEXT:    %[[TILES:.+]] = arith.divui %[[UP]], %c16 : index
// FMA:         gpu.block_id  x upper_bound 65535
// FMA:         %[[ROW:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// FMA-NEXT:    %[[IN:.+]] = arith.cmpi ult, %[[ROW]], %[[M]] : index
// FMA:         %[[CLAMPED:.+]] = arith.minui %[[ROW]], %[[LASTM]] : index
// FMA-NEXT:    scf.if %[[IN]] -> (vector<4xf16>) {
// FMA-NEXT:      vector.transfer_read %{{.+}}[%{{.+}}, %[[CLAMPED]], %{{.+}}]
// FMA:         scf.for %{{.+}} = %c0 to %[[TILES]] step %c1
// FMA:           %[[KV:.+]] = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : index
// FMA-NEXT:      %[[KIN:.+]] = arith.cmpi ult, %[[KV]], %[[K2]] : index
// FMA-NEXT:      scf.if %[[KIN]] -> (vector<4xf16>) {
// FMA:           math.fma
// FMA:           %[[SIN:.+]] = arith.cmpi ult, %{{.+}}, %[[K2]] : index
// FMA-NEXT:      arith.select %[[SIN]], %{{.+}}, %cst{{.*}} : f32
// FMA:         scf.if %[[IN]] {
// FMA-NEXT:      vector.transfer_write
// FMA:       iree_codegen.dispatch_config @rows_keys_f16
// FMA-NEXT:  ^bb0(%{{.+}}: !hal.device, %[[WM:.+]]: index, %{{.+}}: index):
// FMA:         %[[UPM:.+]] = arith.addi %[[WM]], %c15 : index
// FMA-NEXT:    %[[QTILES:.+]] = arith.divui %[[UPM]], %c16 : index
// FMA-NEXT:    iree_codegen.yield %[[QTILES]], %c6, %c1 : index, index, index
// mma.sync (CUDA): ceil(K2 / 64) key tiles; the tile read ahead clamped to the last
// (max(tiles, 1) - 1), each cp.async row clamped to max(K2, 1) - 1 and zero-filled past K2 (a
// source size of 0); ceil(M / 64) query tiles.
// MMA-LABEL: func.func @rows_keys_f16
// MMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// MMA:         %[[M:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// MMA:         %[[K2:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 1 : index
// MMA-NEXT:    %[[MAXK:.+]] = arith.maxui %[[K2]], %c1 : index
// MMA-NEXT:    %[[LASTK:.+]] = arith.subi %[[MAXK]], %c1 : index
// MMA:         %[[UP:.+]] = arith.addi %[[K2]], %c63 : index
// MMA-NEXT:    %[[TILES:.+]] = arith.divui %[[UP]], %c64 : index
// MMA-NEXT:    %[[MAXT:.+]] = arith.maxui %[[TILES]], %c1 : index
// MMA-NEXT:    %[[LASTT:.+]] = arith.subi %[[MAXT]], %c1 : index
// MMA:         %[[QIN:.+]] = arith.cmpi ult, %{{.+}}, %[[M]] : index
// MMA:         scf.for %{{.+}} = %c0 to %[[TILES]] step %c1
// MMA:           %[[AHEAD:.+]] = arith.minui %{{.+}}, %[[LASTT]] : index
// MMA:           %[[KV:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// MMA-NEXT:      %[[KIN:.+]] = arith.cmpi ult, %[[KV]], %[[K2]] : index
// MMA-NEXT:      %[[KROW:.+]] = arith.minui %[[KV]], %[[LASTK]] : index
// MMA-NEXT:      %[[BYTES:.+]] = arith.select %[[KIN]], %c8, %c0 : index
// MMA-NEXT:      nvgpu.device_async_copy %{{.+}}[%{{.+}}, %[[KROW]], %{{.+}}], %{{.+}}, 8, %[[BYTES]] bypassL1
// MMA:           nvgpu.mma.sync
// MMA:         scf.if %[[QIN]] {
// MMA-NEXT:      vector.transfer_write
// MMA:       iree_codegen.dispatch_config @rows_keys_f16
// MMA-NEXT:  ^bb0(%{{.+}}: !hal.device, %[[WM:.+]]: index, %{{.+}}: index):
// MMA:         %[[UPM:.+]] = arith.addi %[[WM]], %c63 : index
// MMA-NEXT:    %[[QTILES:.+]] = arith.divui %[[UPM]], %c64 : index
// MMA-NEXT:    iree_codegen.yield %[[QTILES]], %c6, %c1 : index, index, index
// wgmma (sm_90a): the same bounds on 128-key tiles, taken by two kv splits (one warpgroup of
// rows: few rows) in rounds of two tiles, a split's tile past the last skipped.
// WGMMA-LABEL: func.func @rows_keys_f16
// WGMMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// WGMMA:         %[[K2:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 1 : index
// WGMMA:         %[[UP:.+]] = arith.addi %[[K2]], %c127 : index
// WGMMA-NEXT:    %[[TILES:.+]] = arith.divui %[[UP]], %c128 : index
// WGMMA:         %[[ROUNDS:.+]] = arith.ceildivui %[[TILES]], %c2 : index
// WGMMA:         scf.for %{{.+}} = %c0 to %[[ROUNDS]] step %c1
// WGMMA:           %[[IN:.+]] = arith.cmpi ult, %{{.+}}, %[[TILES]] : index
// WGMMA-NEXT:      scf.if %[[IN]]
// WGMMA:             nvvm.wgmma.mma_async
// WGMMA:       iree_codegen.dispatch_config @rows_keys_f16
// WGMMA:         arith.divui %{{.+}}, %c64 : index
// MFMA on gfx942: 64-key tiles read through registers, guarded.
// MFMA-LABEL: func.func @rows_keys_f16
// MFMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// MFMA:         %[[K2:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 1 : index
// MFMA:         %[[UP:.+]] = arith.addi %[[K2]], %c63 : index
// MFMA-NEXT:    %[[TILES:.+]] = arith.divui %[[UP]], %c64 : index
// MFMA:         scf.for %{{.+}} = %c0 to %[[TILES]] step %c1
// MFMA:           amdgpu.mfma 16x16x16
// MFMA:       iree_codegen.dispatch_config @rows_keys_f16
// MFMA:         arith.divui %{{.+}}, %c64 : index
#layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @rows_keys_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %cst_2 = arith.constant 1.250000e-01 : f16
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#layout) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(#layout) ordinal(1) : i32
  %2 = arith.index_castui %0 : i32 to index
  %3 = arith.index_castui %1 : i32 to index
  %m = iree_tensor_ext.dispatch.workload.ordinal %2, 0 : index
  %k2 = iree_tensor_ext.dispatch.workload.ordinal %3, 1 : index
  %4 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>{%m}
  %5 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>{%k2}
  %6 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>{%k2}
  %7 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>{%m}
  %q = iree_codegen.load_from_buffer %4 : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x?x64xf16>
  %k = iree_codegen.load_from_buffer %5 : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x?x64xf16>
  %v = iree_codegen.load_from_buffer %6 : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x?x64xf16>
  %8 = tensor.empty(%m) : tensor<6x?x64xf16>
  %9 = tensor.empty(%m) : tensor<6x?x64xf32>
  %10 = tensor.empty(%m) : tensor<6x?xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<6x?x64xf32>) -> tensor<6x?x64xf32>
  %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<6x?xf32>) -> tensor<6x?xf32>
  %13 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<6x?xf32>) -> tensor<6x?xf32>
  %14:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%q, %k, %v, %cst_2 : tensor<6x?x64xf16>, tensor<6x?x64xf16>, tensor<6x?x64xf16>, f16) outs(%11, %12, %13 : tensor<6x?x64xf32>, tensor<6x?xf32>, tensor<6x?xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<6x?x64xf32>, tensor<6x?xf32>, tensor<6x?xf32>
  %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14#2, %14#0 : tensor<6x?xf32>, tensor<6x?x64xf32>) outs(%8 : tensor<6x?x64xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %16 = arith.divf %cst, %in : f32
    %17 = arith.mulf %16, %in_3 : f32
    %18 = arith.truncf %17 : f32 to f16
    linalg.yield %18 : f16
  } -> tensor<6x?x64xf16>
  iree_codegen.store_to_buffer %15, %7 : tensor<6x?x64xf16> into memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @rows_keys_f16 {
^bb0(%arg0: !hal.device, %arg1: index, %arg2: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// The suite BERT twin's attention exported with a dynamic sequence S (M and K2 one ordinal), as
// IREE binds it on Vulkan: Q, K and V^T (keys innermost) at run-time offsets of one binding, the
// output copied to [S, heads, D]. V^T's rows, of run-time length, are read a key at a time
// (guarded); on CUDA the FMA kernel too (f32 has no mma.sync here).
// FMA-LABEL: func.func @bert_twin_vt_f32
// FMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// FMA:         %[[S:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// FMA:         %[[VT:.+]] = hal.interface.binding.subspan {{.*}} : memref<2x16x?xf32, strided<[?, ?, 1], offset: ?>, {{.*}}>{%[[S]]}
// FMA:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} : memref<?x2x16xf32, strided<[32, 16, 1], offset: ?>, {{.*}}>{%[[S]]}
// FMA:         memref.alloc() alignment = 16 : memref<4x16x16xf32, #gpu.address_space<workgroup>>
// FMA:         scf.if %{{.+}} -> (vector<4xf32>) {
// FMA:         %[[KV:.+]] = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : index
// FMA-NEXT:    %[[IN:.+]] = arith.cmpi ult, %[[KV]], %[[S]] : index
// FMA-NEXT:    scf.if %[[IN]] -> (vector<1xf32>) {
// FMA-NEXT:      vector.transfer_read %[[VT]][%{{.+}}, %{{.+}}, %[[KV]]]
// FMA:         vector.transfer_write %{{.+}}, %[[OUT]]
// FMA:       iree_codegen.dispatch_config @bert_twin_vt_f32
// FMA-NEXT:  ^bb0(%{{.+}}: !hal.device, %[[W:.+]]: index):
// FMA:         %[[UP:.+]] = arith.addi %[[W]], %c15 : index
// FMA-NEXT:    %[[QTILES:.+]] = arith.divui %[[UP]], %c16 : index
// FMA-NEXT:    iree_codegen.yield %[[QTILES]], %c2, %c1 : index, index, index
// MMA-LABEL: func.func @bert_twin_vt_f32
// MMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
#layout1 = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @bert_twin_vt_f32() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %cst_2 = arith.constant 2.500000e-01 : f32
  %0 = hal.interface.constant.load layout(#layout1) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(#layout1) ordinal(1) : i32
  %2 = hal.interface.constant.load layout(#layout1) ordinal(2) : i32
  %3 = hal.interface.constant.load layout(#layout1) ordinal(3) : i32
  %4 = arith.index_castui %0 : i32 to index
  %5 = arith.index_castui %1 : i32 to index
  %6 = arith.index_castui %2 : i32 to index
  %7 = arith.index_castui %3 : i32 to index
  %s = iree_tensor_ext.dispatch.workload.ordinal %7, 0 : index
  %8 = hal.interface.binding.subspan layout(#layout1) binding(0) alignment(64) offset(%4) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x?x16xf32>>{%s}
  %9 = hal.interface.binding.subspan layout(#layout1) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x?x16xf32>>{%s}
  %10 = hal.interface.binding.subspan layout(#layout1) binding(0) alignment(64) offset(%5) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x16x?xf32>>{%s}
  %11 = hal.interface.binding.subspan layout(#layout1) binding(1) alignment(64) offset(%6) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x2x16xf32>>{%s}
  %q = iree_tensor_ext.dispatch.tensor.load %8, offsets = [0, 0, 0], sizes = [2, %s, 16], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x?x16xf32>>{%s} -> tensor<2x?x16xf32>
  %k = iree_tensor_ext.dispatch.tensor.load %9, offsets = [0, 0, 0], sizes = [2, %s, 16], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x?x16xf32>>{%s} -> tensor<2x?x16xf32>
  %vt = iree_tensor_ext.dispatch.tensor.load %10, offsets = [0, 0, 0], sizes = [2, 16, %s], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x16x?xf32>>{%s} -> tensor<2x16x?xf32>
  %12 = tensor.empty(%s) : tensor<2x?x16xf32>
  %13 = tensor.empty(%s) : tensor<2x?x16xf32>
  %14 = tensor.empty(%s) : tensor<2x?xf32>
  %15 = linalg.fill ins(%cst_1 : f32) outs(%13 : tensor<2x?x16xf32>) -> tensor<2x?x16xf32>
  %16 = linalg.fill ins(%cst_0 : f32) outs(%14 : tensor<2x?xf32>) -> tensor<2x?xf32>
  %17 = linalg.fill ins(%cst_1 : f32) outs(%14 : tensor<2x?xf32>) -> tensor<2x?xf32>
  %18:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%q, %k, %vt, %cst_2 : tensor<2x?x16xf32>, tensor<2x?x16xf32>, tensor<2x16x?xf32>, f32) outs(%15, %16, %17 : tensor<2x?x16xf32>, tensor<2x?xf32>, tensor<2x?xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<2x?x16xf32>, tensor<2x?xf32>, tensor<2x?xf32>
  %19 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%18#2, %18#0 : tensor<2x?xf32>, tensor<2x?x16xf32>) outs(%12 : tensor<2x?x16xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %20 = arith.divf %cst, %in : f32
    %21 = arith.mulf %20, %in_3 : f32
    linalg.yield %21 : f32
  } -> tensor<2x?x16xf32>
  %22 = tensor.empty(%s) : tensor<?x2x16xf32>
  %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19 : tensor<2x?x16xf32>) outs(%22 : tensor<?x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x2x16xf32>
  iree_tensor_ext.dispatch.tensor.store %23, %11, offsets = [0, 0, 0], sizes = [%s, 2, 16], strides = [1, 1, 1] : tensor<?x2x16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x2x16xf32>>{%s}
  return
}
iree_codegen.dispatch_config @bert_twin_vt_f32 {
^bb0(%arg0: !hal.device, %arg1: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// Causal by its region: the key tiles a workgroup visits, min(ceil(min(row0 + BM, M) / BN), tiles),
// computed from both run-time extents.
// MMA-LABEL: func.func @causal_f16
// MMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// MMA:         %[[M:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// MMA:         %[[K2:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 1 : index
// MMA:         %[[UP:.+]] = arith.addi %[[K2]], %c63 : index
// MMA-NEXT:    %[[TILES:.+]] = arith.divui %[[UP]], %c64 : index
// MMA:         %[[END:.+]] = arith.minui %{{.+}}, %[[M]] : index
// MMA-NEXT:    %[[ENDS:.+]] = arith.ceildivui %[[END]], %c64 : index
// MMA-NEXT:    %[[VISITED:.+]] = arith.minui %[[ENDS]], %[[TILES]] : index
// MMA:         scf.for %{{.+}} = %c0 to %[[VISITED]] step %c1
// FMA-LABEL: func.func @causal_f16
// FMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
#layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @causal_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %cst_2 = arith.constant 1.250000e-01 : f16
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#layout) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(#layout) ordinal(1) : i32
  %2 = arith.index_castui %0 : i32 to index
  %3 = arith.index_castui %1 : i32 to index
  %m = iree_tensor_ext.dispatch.workload.ordinal %2, 0 : index
  %k2 = iree_tensor_ext.dispatch.workload.ordinal %3, 1 : index
  %4 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>{%m}
  %5 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>{%k2}
  %6 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>{%k2}
  %7 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>{%m}
  %q = iree_codegen.load_from_buffer %4 : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x?x64xf16>
  %k = iree_codegen.load_from_buffer %5 : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x?x64xf16>
  %v = iree_codegen.load_from_buffer %6 : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x?x64xf16>
  %8 = tensor.empty(%m) : tensor<6x?x64xf16>
  %9 = tensor.empty(%m) : tensor<6x?x64xf32>
  %10 = tensor.empty(%m) : tensor<6x?xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<6x?x64xf32>) -> tensor<6x?x64xf32>
  %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<6x?xf32>) -> tensor<6x?xf32>
  %13 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<6x?xf32>) -> tensor<6x?xf32>
  %14:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%q, %k, %v, %cst_2 : tensor<6x?x64xf16>, tensor<6x?x64xf16>, tensor<6x?x64xf16>, f16) outs(%11, %12, %13 : tensor<6x?x64xf32>, tensor<6x?xf32>, tensor<6x?xf32>) {
  ^bb0(%arg0: f32):
    %r = iree_linalg_ext.index 1 : index
    %c = iree_linalg_ext.index 4 : index
    %past = arith.cmpi ugt, %c, %r : index
    %ninf = arith.constant 0xFF800000 : f32
    %s = arith.select %past, %ninf, %arg0 : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<6x?x64xf32>, tensor<6x?xf32>, tensor<6x?xf32>
  %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14#2, %14#0 : tensor<6x?xf32>, tensor<6x?x64xf32>) outs(%8 : tensor<6x?x64xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %16 = arith.divf %cst, %in : f32
    %17 = arith.mulf %16, %in_3 : f32
    %18 = arith.truncf %17 : f32 to f16
    linalg.yield %18 : f16
  } -> tensor<6x?x64xf16>
  iree_codegen.store_to_buffer %15, %7 : tensor<6x?x64xf16> into memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @causal_f16 {
^bb0(%arg0: !hal.device, %arg1: index, %arg2: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// V^T of a dynamic key count, f16: the FMA kernel reads it a key at a time, on CUDA too (the
// mma.sync kernel's 16-byte copies along its rows would need them aligned, and IREE 3.13 cannot
// compile it: "Padding OnlineAttention without existing mask is not yet supported").
// FMA-LABEL: func.func @vt_keys_f16
// FMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// MMA-LABEL: func.func @vt_keys_f16
// MMA-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// MMA:         scf.if %{{.+}} -> (vector<1xf16>) {
// MMA-NOT:     nvgpu.mma.sync
// MMA:       iree_codegen.dispatch_config @vt_keys_f16
#layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @vt_keys_f16() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %cst_2 = arith.constant 1.250000e-01 : f16
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#layout) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(#layout) ordinal(1) : i32
  %2 = arith.index_castui %0 : i32 to index
  %3 = arith.index_castui %1 : i32 to index
  %m = iree_tensor_ext.dispatch.workload.ordinal %2, 0 : index
  %k2 = iree_tensor_ext.dispatch.workload.ordinal %3, 1 : index
  %4 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>{%m}
  %5 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>{%k2}
  %6 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x64x?xf16, #hal.descriptor_type<storage_buffer>>{%k2}
  %7 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>{%m}
  %q = iree_codegen.load_from_buffer %4 : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x?x64xf16>
  %k = iree_codegen.load_from_buffer %5 : memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x?x64xf16>
  %v = iree_codegen.load_from_buffer %6 : memref<6x64x?xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x64x?xf16>
  %8 = tensor.empty(%m) : tensor<6x?x64xf16>
  %9 = tensor.empty(%m) : tensor<6x?x64xf32>
  %10 = tensor.empty(%m) : tensor<6x?xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<6x?x64xf32>) -> tensor<6x?x64xf32>
  %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<6x?xf32>) -> tensor<6x?xf32>
  %13 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<6x?xf32>) -> tensor<6x?xf32>
  %14:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%q, %k, %v, %cst_2 : tensor<6x?x64xf16>, tensor<6x?x64xf16>, tensor<6x64x?xf16>, f16) outs(%11, %12, %13 : tensor<6x?x64xf32>, tensor<6x?xf32>, tensor<6x?xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<6x?x64xf32>, tensor<6x?xf32>, tensor<6x?xf32>
  %15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14#2, %14#0 : tensor<6x?xf32>, tensor<6x?x64xf32>) outs(%8 : tensor<6x?x64xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %16 = arith.divf %cst, %in : f32
    %17 = arith.mulf %16, %in_3 : f32
    %18 = arith.truncf %17 : f32 to f16
    linalg.yield %18 : f16
  } -> tensor<6x?x64xf16>
  iree_codegen.store_to_buffer %15, %7 : tensor<6x?x64xf16> into memref<6x?x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @vt_keys_f16 {
^bb0(%arg0: !hal.device, %arg1: index, %arg2: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A dynamic head dim: left to IREE, the remark naming it.
// FMA-LABEL: func.func @dynamic_head_dim
// FMA-NOT:     ldsopt.lowered_by
// FMA:         iree_linalg_ext.online_attention
#layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_head_dim() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %cst_2 = arith.constant 1.250000e-01 : f16
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %d = iree_tensor_ext.dispatch.workload.ordinal %1, 0 : index
  %2 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x32x?xf16, #hal.descriptor_type<storage_buffer>>{%d}
  %3 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x48x?xf16, #hal.descriptor_type<storage_buffer>>{%d}
  %4 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<6x48x64xf16, #hal.descriptor_type<storage_buffer>>
  %5 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<6x32x64xf16, #hal.descriptor_type<storage_buffer>>
  %q = iree_codegen.load_from_buffer %2 : memref<6x32x?xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x32x?xf16>
  %k = iree_codegen.load_from_buffer %3 : memref<6x48x?xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x48x?xf16>
  %v = iree_codegen.load_from_buffer %4 : memref<6x48x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<6x48x64xf16>
  %6 = tensor.empty() : tensor<6x32x64xf16>
  %7 = tensor.empty() : tensor<6x32x64xf32>
  %8 = tensor.empty() : tensor<6x32xf32>
  %9 = linalg.fill ins(%cst_1 : f32) outs(%7 : tensor<6x32x64xf32>) -> tensor<6x32x64xf32>
  %10 = linalg.fill ins(%cst_0 : f32) outs(%8 : tensor<6x32xf32>) -> tensor<6x32xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<6x32xf32>) -> tensor<6x32xf32>
  // expected-remark @+1 {{ldsopt-attention: left to IREE: dynamic shapes (extents read at run time): a dynamic head dim; this pass takes dynamic query rows and keys, with the head dims, the value dim and the batch and heads static}}
  %12:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%q, %k, %v, %cst_2 : tensor<6x32x?xf16>, tensor<6x48x?xf16>, tensor<6x48x64xf16>, f16) outs(%9, %10, %11 : tensor<6x32x64xf32>, tensor<6x32xf32>, tensor<6x32xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<6x32x64xf32>, tensor<6x32xf32>, tensor<6x32xf32>
  %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12#2, %12#0 : tensor<6x32xf32>, tensor<6x32x64xf32>) outs(%6 : tensor<6x32x64xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %14 = arith.divf %cst, %in : f32
    %15 = arith.mulf %14, %in_3 : f32
    %16 = arith.truncf %15 : f32 to f16
    linalg.yield %16 : f16
  } -> tensor<6x32x64xf16>
  iree_codegen.store_to_buffer %13, %5 : tensor<6x32x64xf16> into memref<6x32x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A dynamic batch (in Q, K and V): left to IREE, the remark naming its loop.
// FMA-LABEL: func.func @dynamic_batch
// FMA-NOT:     ldsopt.lowered_by
// FMA:         iree_linalg_ext.online_attention
#layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_batch() {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %cst_2 = arith.constant 1.250000e-01 : f16
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %d = iree_tensor_ext.dispatch.workload.ordinal %1, 0 : index
  %2 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x32x64xf16, #hal.descriptor_type<storage_buffer>>{%d}
  %3 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x48x64xf16, #hal.descriptor_type<storage_buffer>>{%d}
  %4 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x48x64xf16, #hal.descriptor_type<storage_buffer>>{%d}
  %5 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<6x32x64xf16, #hal.descriptor_type<storage_buffer>>
  %q = iree_codegen.load_from_buffer %2 : memref<?x32x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<?x32x64xf16>
  %k = iree_codegen.load_from_buffer %3 : memref<?x48x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<?x48x64xf16>
  %v = iree_codegen.load_from_buffer %4 : memref<?x48x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<?x48x64xf16>
  %6 = tensor.empty() : tensor<6x32x64xf16>
  %7 = tensor.empty() : tensor<6x32x64xf32>
  %8 = tensor.empty() : tensor<6x32xf32>
  %9 = linalg.fill ins(%cst_1 : f32) outs(%7 : tensor<6x32x64xf32>) -> tensor<6x32x64xf32>
  %10 = linalg.fill ins(%cst_0 : f32) outs(%8 : tensor<6x32xf32>) -> tensor<6x32xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<6x32xf32>) -> tensor<6x32xf32>
  // expected-remark @+1 {{ldsopt-attention: left to IREE: dynamic shapes (extents read at run time): a dynamic batch or head loop d0; this pass takes dynamic query rows and keys, with the head dims, the value dim and the batch and heads static}}
  %12:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>]> ins(%q, %k, %v, %cst_2 : tensor<?x32x64xf16>, tensor<?x48x64xf16>, tensor<?x48x64xf16>, f16) outs(%9, %10, %11 : tensor<6x32x64xf32>, tensor<6x32xf32>, tensor<6x32xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<6x32x64xf32>, tensor<6x32xf32>, tensor<6x32xf32>
  %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12#2, %12#0 : tensor<6x32xf32>, tensor<6x32x64xf32>) outs(%6 : tensor<6x32x64xf16>) {
  ^bb0(%in: f32, %in_3: f32, %out: f16):
    %14 = arith.divf %cst, %in : f32
    %15 = arith.mulf %14, %in_3 : f32
    %16 = arith.truncf %15 : f32 to f16
    linalg.yield %16 : f16
  } -> tensor<6x32x64xf16>
  iree_codegen.store_to_buffer %13, %5 : tensor<6x32x64xf16> into memref<6x32x64xf16, #hal.descriptor_type<storage_buffer>>
  return
}
