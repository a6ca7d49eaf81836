// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-matmul-lds)' \
// RUN:   | filecheck %s --check-prefix=SM90
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' -o %t

// A dynamic M (a sequence's length, a workload ordinal read at run time) with N, K static, as
// IREE binds it on Vulkan, and a bias added: the plan is made for a nominal M; A's row reads,
// the bias's early read and the output's row stores are guarded against the run-time M (and
// N's tail, 48 in a 64 tile), and the count region launches ceil(M / 64) workgroups along y
// (the kernel's y bound is the target's most).
// CHECK-LABEL: func.func @dynamic_m_bias_f32
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[M:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[A:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<?x64xf32, {{.*}}>{%[[M]]}
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(3) {{.*}} : memref<?x48xf32, {{.*}}>{%[[M]]}
// CHECK:         %[[Y:.+]] = gpu.block_id  y upper_bound 65535
// CHECK:         %[[ROW0:.+]] = arith.muli %[[Y]], %c64
// CHECK:         %[[ROW:.+]] = arith.addi %[[ROW0]], %{{.+}}
// CHECK:         %[[IN:.+]] = arith.cmpi ult, %[[ROW]], %[[M]] : index
// CHECK:         scf.if %[[IN]] -> (vector<4xf32>) {
// CHECK:           vector.transfer_read %[[A]][%[[ROW]], %{{.+}}]{{.*}} : memref<?x64xf32, {{.*}}>, vector<4xf32>
// CHECK:         scf.for
// CHECK:           gpu.barrier
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[OUT_ROW:.+]] = arith.addi %[[ROW0]], %{{.+}}
// CHECK-NEXT:    %[[OUT_COL:.+]] = arith.addi
// CHECK-NEXT:    %[[IN_M:.+]] = arith.cmpi ult, %[[OUT_ROW]], %[[M]] : index
// CHECK-NEXT:    %[[IN_N:.+]] = arith.cmpi ult, %[[OUT_COL]], %c48 : index
// CHECK-NEXT:    %[[STORED:.+]] = arith.andi %[[IN_M]], %[[IN_N]] : i1
// CHECK-NEXT:    scf.if %[[STORED]] {
// CHECK-NEXT:      arith.addf %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK-NEXT:      vector.transfer_write %{{.+}}, %[[OUT]][%[[OUT_ROW]], %[[OUT_COL]]] {{.*}} : vector<4xf32>, memref<?x48xf32
// CHECK:       iree_codegen.dispatch_config @dynamic_m_bias_f32
// CHECK-NEXT:  ^bb0(%{{.+}}: !hal.device, %[[W:.+]]: index):
// CHECK:         %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[C63:.+]] = arith.constant 63 : index
// CHECK:         %[[UP:.+]] = arith.addi %[[W]], %[[C63]] : index
// CHECK:         %[[C64:.+]] = arith.constant 64 : index
// CHECK:         %[[ROWS:.+]] = arith.divui %[[UP]], %[[C64]] : index
// CHECK:         iree_codegen.yield %[[C1]], %[[ROWS]], %[[C1]] : index, index, index
#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_m_bias_f32() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %m = iree_tensor_ext.dispatch.workload.ordinal %1, 0 : index
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%m}
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x48xf32>>
  %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<48xf32>>
  %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x48xf32>>{%m}
  %a = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [%m, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%m} -> tensor<?x64xf32>
  %b = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0, 0], sizes = [64, 48], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x48xf32>> -> tensor<64x48xf32>
  %bias = iree_tensor_ext.dispatch.tensor.load %4, offsets = [0], sizes = [48], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<48xf32>> -> tensor<48xf32>
  %e = tensor.empty(%m) : tensor<?x48xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<?x48xf32>) -> tensor<?x48xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x48xf32>) outs(%z : tensor<?x48xf32>) -> tensor<?x48xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<?x48xf32>, tensor<48xf32>) outs(%e : tensor<?x48xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<?x48xf32>
  iree_tensor_ext.dispatch.tensor.store %y, %5, offsets = [0, 0], sizes = [%m, 48], strides = [1, 1] : tensor<?x48xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x48xf32>>{%m}
  return
}
iree_codegen.dispatch_config @dynamic_m_bias_f32 {
^bb0(%arg0: !hal.device, %arg1: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// An f16 batch matmul of one batch and a dynamic M into f32, as IREE binds it on CUDA: flat
// buffers expanded to [1, s0 floordiv 32, 32]. On sm_90a (wgmma, its operands copied by
// cp.async: TMA refuses dynamic shapes) A's rows are clamped to max(M, 1) - 1 for the copies (a DMA
// cannot zero-fill; those rows feed only outputs that are not stored), the output rows are
// guarded against M, into the output stage and out of it, and the count region computes M
// from the workload again.
// SM90-LABEL: func.func @dynamic_m_batch_f16
// SM90-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// SM90:         %[[W:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// SM90:         %[[M:.+]] = affine.apply #{{.+}}()[%[[W]]]
// SM90-NEXT:    %[[ATLEAST:.+]] = arith.maxui %[[M]], %c1 : index
// SM90-NEXT:    %[[LAST:.+]] = arith.subi %[[ATLEAST]], %c1 : index
// SM90:         %[[OUT:.+]] = memref.expand_shape {{.*}} output_shape [1, %[[M]], 48]
// SM90:         %[[Y:.+]] = gpu.block_id  y upper_bound 65535
// SM90-NEXT:    %[[ROW0:.+]] = arith.muli %[[Y]], %c64 : index
// SM90:         %[[ROW:.+]] = arith.addi %[[ROW0]], %{{.+}} : index
// SM90-NEXT:    %[[CLAMPED:.+]] = arith.minui %[[ROW]], %[[LAST]] : index
// SM90:         nvgpu.device_async_copy %{{.+}}[%{{.+}}, %[[CLAMPED]], %{{.+}}], %{{.+}}, 8
// SM90:         nvvm.wgmma.mma_async
// SM90:         nvvm.wgmma.wait.group.sync.aligned 0
// SM90:         %[[IN_M:.+]] = arith.cmpi ult, %{{.+}}, %[[M]] : index
// SM90-NEXT:    %[[IN_N:.+]] = arith.cmpi ult, %{{.+}}, %c48 : index
// SM90-NEXT:    %[[IN:.+]] = arith.andi %[[IN_M]], %[[IN_N]] : i1
// SM90-NEXT:    scf.if %[[IN]] {
// SM90-NEXT:      vector.store {{.*}} : memref<64x72xf32, #gpu.address_space<workgroup>>
// SM90:         gpu.barrier
// SM90:         %[[ROW1:.+]] = arith.addi %[[ROW0]], %{{.+}} : index
// SM90-NEXT:    %[[COL1:.+]] = arith.addi
// SM90-NEXT:    %[[STORED_M:.+]] = arith.cmpi ult, %[[ROW1]], %[[M]] : index
// SM90-NEXT:    %[[STORED_N:.+]] = arith.cmpi ult, %[[COL1]], %c48 : index
// SM90-NEXT:    %[[STORED:.+]] = arith.andi %[[STORED_M]], %[[STORED_N]] : i1
// SM90-NEXT:    scf.if %[[STORED]] {
// SM90-NEXT:      vector.load
// SM90-NEXT:      vector.transfer_write %{{.+}}, %[[OUT]][%{{.+}}, %[[ROW1]], %[[COL1]]]
// SM90:       iree_codegen.dispatch_config @dynamic_m_batch_f16
// SM90-NEXT:  ^bb0(%{{.+}}: !hal.device, %[[W0:.+]]: index):
// SM90:         %[[M0:.+]] = affine.apply #{{.+}}()[%[[W0]]]
// SM90:         %[[UP:.+]] = arith.addi %[[M0]], %{{.+}} : index
// SM90:         %[[ROWS:.+]] = arith.divui %[[UP]], %{{.+}} : index
// SM90:         iree_codegen.yield %{{.+}}, %[[ROWS]], %{{.+}} : index, index, index
#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_m_batch_f16() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %w = iree_tensor_ext.dispatch.workload.ordinal %1, 0 : index
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?xf16, #hal.descriptor_type<storage_buffer>>{%w}
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1x32x48xf16, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<?xf32, #hal.descriptor_type<storage_buffer>>{%w}
  %m = affine.apply affine_map<()[s0] -> (s0 floordiv 32)>()[%w]
  %ea = memref.expand_shape %2 [[0, 1, 2]] output_shape [1, %m, 32] : memref<?xf16, #hal.descriptor_type<storage_buffer>> into memref<1x?x32xf16, #hal.descriptor_type<storage_buffer>>
  %eo = memref.expand_shape %4 [[0, 1, 2]] output_shape [1, %m, 48] : memref<?xf32, #hal.descriptor_type<storage_buffer>> into memref<1x?x48xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %ea : memref<1x?x32xf16, #hal.descriptor_type<storage_buffer>> -> tensor<1x?x32xf16>
  %b = iree_codegen.load_from_buffer %3 : memref<1x32x48xf16, #hal.descriptor_type<storage_buffer>> -> tensor<1x32x48xf16>
  %e = tensor.empty(%m) : tensor<1x?x48xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x?x48xf32>) -> tensor<1x?x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<1x?x32xf16>, tensor<1x32x48xf16>) outs(%z : tensor<1x?x48xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %p = arith.extf %in : f16 to f32
    %q = arith.extf %in_0 : f16 to f32
    %t = arith.mulf %p, %q : f32
    %s = arith.addf %out, %t : f32
    linalg.yield %s : f32
  } -> tensor<1x?x48xf32>
  iree_codegen.store_to_buffer %r, %eo : tensor<1x?x48xf32> into memref<1x?x48xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @dynamic_m_batch_f16 {
^bb0(%arg0: !hal.device, %arg1: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A dynamic K (M and N static): the K loop runs ceil(K / 16) steps, counted at run time; A's
// reads along K (its contiguous dim, so one element at a time) and B's K rows (and N's tail,
// 48 in a 64 tile) are guarded against K in the first tile and in the loop's next tile, whose K offset is not clamped (past
// K it reads nothing); the count region is static.
// CHECK-LABEL: func.func @dynamic_k
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[K:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[A:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<64x?xf32, {{.*}}>{%[[K]]}
// CHECK:         %[[B:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<?x48xf32, {{.*}}>{%[[K]]}
// CHECK:         %[[COL0:.+]] = arith.addi %c0, %{{.+}} : index
// CHECK:         %[[IN0:.+]] = arith.cmpi ult, %[[COL0]], %[[K]] : index
// CHECK-NEXT:    scf.if %[[IN0]] -> (vector<1xf32>) {
// CHECK:           vector.transfer_read %[[A]][%{{.+}}, %[[COL0]]]{{.*}} : memref<64x?xf32, {{.*}}>, vector<1xf32>
// CHECK:         %[[UP:.+]] = arith.addi %[[K]], %c15 : index
// CHECK-NEXT:    %[[STEPS:.+]] = arith.divui %[[UP]], %c16 : index
// CHECK-NEXT:    scf.for %[[KT:.+]] = %c0 to %[[STEPS]] step %c1
// CHECK:           %[[NEXT:.+]] = arith.addi %[[KT]], %c1 : index
// CHECK-NEXT:      %[[K0:.+]] = arith.muli %[[NEXT]], %c16 : index
// CHECK-NOT:       arith.minui
// CHECK:           %[[COL:.+]] = arith.addi %[[K0]], %{{.+}} : index
// CHECK:           %[[IN:.+]] = arith.cmpi ult, %[[COL]], %[[K]] : index
// CHECK-NEXT:      scf.if %[[IN]] -> (vector<1xf32>) {
// CHECK:             vector.transfer_read %[[A]][%{{.+}}, %[[COL]]]
// CHECK:           %[[ROW:.+]] = arith.addi %[[K0]], %{{.+}} : index
// CHECK:           %[[IN_K:.+]] = arith.cmpi ult, %[[ROW]], %[[K]] : index
// CHECK-NEXT:      %[[IN_N:.+]] = arith.cmpi ult, %{{.+}}, %c48 : index
// CHECK-NEXT:      %[[IN_B:.+]] = arith.andi %[[IN_K]], %[[IN_N]] : i1
// CHECK-NEXT:      scf.if %[[IN_B]] -> (vector<4xf32>) {
// CHECK:             vector.transfer_read %[[B]][%[[ROW]], %{{.+}}]
// CHECK:       iree_codegen.dispatch_config @dynamic_k
// CHECK:         iree_codegen.yield %c1, %c1_0, %c1_1 : index, index, index
#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_k() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %k = iree_tensor_ext.dispatch.workload.ordinal %1, 0 : index
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x?xf32>>{%k}
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x48xf32>>{%k}
  %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x48xf32>>
  %a = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [64, %k], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x?xf32>>{%k} -> tensor<64x?xf32>
  %b = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0, 0], sizes = [%k, 48], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x48xf32>>{%k} -> tensor<?x48xf32>
  %e = tensor.empty() : tensor<64x48xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x?xf32>, tensor<?x48xf32>) outs(%z : tensor<64x48xf32>) -> tensor<64x48xf32>
  iree_tensor_ext.dispatch.tensor.store %mm, %4, offsets = [0, 0], sizes = [64, 48], strides = [1, 1] : tensor<64x48xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x48xf32>>
  return
}
iree_codegen.dispatch_config @dynamic_k {
^bb0(%arg0: !hal.device, %arg1: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A dynamic M and N, each its own workload ordinal: B's reads along N (its contiguous dim, so
// one element at a time) are guarded against N, the output is stored one element at a time
// (a vector along N could cross its end), each guarded against M and N, and the count region
// launches ceil(N / 64) x ceil(M / 64) workgroups (both bounds the target's most).
// CHECK-LABEL: func.func @dynamic_n
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[M:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[N:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 1 : index
// CHECK:         %[[B:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<64x?xf32, {{.*}}>{%[[N]]}
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<?x?xf32, {{.*}}>{%[[M]], %[[N]]}
// CHECK:         %[[X:.+]] = gpu.block_id  x upper_bound 65535
// CHECK-NEXT:    %[[Y:.+]] = gpu.block_id  y upper_bound 65535
// CHECK-NEXT:    %[[ROW0:.+]] = arith.muli %[[Y]], %c64 : index
// CHECK-NEXT:    %[[COL0:.+]] = arith.muli %[[X]], %c64 : index
// CHECK:         %[[COL:.+]] = arith.addi %[[COL0]], %{{.+}} : index
// CHECK:         %[[IN:.+]] = arith.cmpi ult, %[[COL]], %[[N]] : index
// CHECK-NEXT:    scf.if %[[IN]] -> (vector<1xf32>) {
// CHECK:           vector.transfer_read %[[B]][%{{.+}}, %[[COL]]]{{.*}} : memref<64x?xf32, {{.*}}>, vector<1xf32>
// CHECK:         scf.for
// CHECK:           gpu.barrier
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[OUT_ROW:.+]] = arith.addi %[[ROW0]], %{{.+}}
// CHECK-NEXT:    %[[OUT_COL:.+]] = arith.addi %[[COL0]], %{{.+}}
// CHECK-NEXT:    %[[PIECE:.+]] = vector.extract_strided_slice %{{.+}} offsets = [0], sizes = [1], strides = [1] : vector<4xf32> to vector<1xf32>
// CHECK-NEXT:    %[[IN_M:.+]] = arith.cmpi ult, %[[OUT_ROW]], %[[M]] : index
// CHECK-NEXT:    %[[IN_N:.+]] = arith.cmpi ult, %[[OUT_COL]], %[[N]] : index
// CHECK-NEXT:    %[[STORED:.+]] = arith.andi %[[IN_M]], %[[IN_N]] : i1
// CHECK-NEXT:    scf.if %[[STORED]] {
// CHECK-NEXT:      vector.transfer_write %[[PIECE]], %[[OUT]][%[[OUT_ROW]], %[[OUT_COL]]] {{.*}} : vector<1xf32>, memref<?x?xf32
// CHECK:       iree_codegen.dispatch_config @dynamic_n
// CHECK-NEXT:  ^bb0(%{{.+}}: !hal.device, %[[WM:.+]]: index, %[[WN:.+]]: index):
// CHECK:         %[[UP_N:.+]] = arith.addi %[[WN]], %[[C63:.+]] : index
// CHECK:         %[[COLS:.+]] = arith.divui %[[UP_N]], %[[C64:.+]] : index
// CHECK-NEXT:    %[[UP_M:.+]] = arith.addi %[[WM]], %[[C63]] : index
// CHECK-NEXT:    %[[ROWS:.+]] = arith.divui %[[UP_M]], %[[C64]] : index
// CHECK:         iree_codegen.yield %[[COLS]], %[[ROWS]], %{{.+}} : index, index, index
#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_n() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %m = iree_tensor_ext.dispatch.workload.ordinal %1, 0 : index
  %2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %3 = arith.index_castui %2 : i32 to index
  %n = iree_tensor_ext.dispatch.workload.ordinal %3, 1 : index
  %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%m}
  %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x?xf32>>{%n}
  %6 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
  %a = iree_tensor_ext.dispatch.tensor.load %4, offsets = [0, 0], sizes = [%m, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%m} -> tensor<?x64xf32>
  %b = iree_tensor_ext.dispatch.tensor.load %5, offsets = [0, 0], sizes = [64, %n], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x?xf32>>{%n} -> tensor<64x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x?xf32>) outs(%z : tensor<?x?xf32>) -> tensor<?x?xf32>
  iree_tensor_ext.dispatch.tensor.store %mm, %6, offsets = [0, 0], sizes = [%m, %n], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
  return
}
iree_codegen.dispatch_config @dynamic_n {
^bb0(%arg0: !hal.device, %arg1: index, %arg2: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1, %arg2)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A dynamic M with a fused producer of an operand (B extended from f16): left to IREE (the
// remark is said at the dispatch's first op).
// CHECK-LABEL: func.func @dynamic_m_prologue
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.matmul
#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_m_prologue() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %m = iree_tensor_ext.dispatch.workload.ordinal %1, 0 : index
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%m}
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x48xf16>>
  %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x48xf32>>{%m}
  %a = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [%m, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%m} -> tensor<?x64xf32>
  %w = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0, 0], sizes = [64, 48], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x48xf16>> -> tensor<64x48xf16>
  %eb = tensor.empty() : tensor<64x48xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: linalg.matmul with a fused elementwise producer: dynamic shapes (extents read at run time): a dynamic M, which this pass takes without fused producers}}
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<64x48xf16>) outs(%eb : tensor<64x48xf32>) {
  ^bb0(%in: f16, %out: f32):
    %x = arith.extf %in : f16 to f32
    linalg.yield %x : f32
  } -> tensor<64x48xf32>
  %e = tensor.empty(%m) : tensor<?x48xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<?x48xf32>) -> tensor<?x48xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x48xf32>) outs(%z : tensor<?x48xf32>) -> tensor<?x48xf32>
  iree_tensor_ext.dispatch.tensor.store %mm, %4, offsets = [0, 0], sizes = [%m, 48], strides = [1, 1] : tensor<?x48xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x48xf32>>{%m}
  return
}
iree_codegen.dispatch_config @dynamic_m_prologue {
^bb0(%arg0: !hal.device, %arg1: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A dynamic N alone (NT: B stored [n, k], read in vectors along its static K), plus a bias of
// N's dynamic length: B's rows, the bias's reads (one element at a time, before the K loop;
// and against M's tail, 40 in a 64 tile) and the output's stores are guarded against N, and
// the count region launches ceil(N / 64) workgroups along x, the M tiles static.
// CHECK-LABEL: func.func @dynamic_n_bias_nt
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[N:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[B:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<?x64xf32, {{.*}}>{%[[N]]}
// CHECK:         %[[BIAS:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<?xf32, {{.*}}>{%[[N]]}
// CHECK:         %[[X:.+]] = gpu.block_id  x upper_bound 65535
// CHECK-NEXT:    %[[Y:.+]] = gpu.block_id  y upper_bound 1
// CHECK:         %[[COL0:.+]] = arith.muli %[[X]], %c64 : index
// CHECK:         %[[ROW:.+]] = arith.addi %[[COL0]], %{{.+}} : index
// CHECK:         %[[IN:.+]] = arith.cmpi ult, %[[ROW]], %[[N]] : index
// CHECK-NEXT:    scf.if %[[IN]] -> (vector<4xf32>) {
// CHECK:           vector.transfer_read %[[B]][%[[ROW]], %{{.+}}]{{.*}} : memref<?x64xf32, {{.*}}>, vector<4xf32>
// CHECK:         %[[BIAS_COL:.+]] = arith.addi %[[COL0]], %{{.+}} : index
// CHECK:         %[[BIAS_M:.+]] = arith.cmpi ult, %{{.+}}, %c40 : index
// CHECK-NEXT:    %[[BIAS_N:.+]] = arith.cmpi ult, %[[BIAS_COL]], %[[N]] : index
// CHECK-NEXT:    %[[BIAS_IN:.+]] = arith.andi %[[BIAS_M]], %[[BIAS_N]] : i1
// CHECK-NEXT:    scf.if %[[BIAS_IN]] -> (vector<1xf32>) {
// CHECK:           vector.transfer_read %[[BIAS]][%[[BIAS_COL]]]
// CHECK:         scf.for %{{.+}} = %c0 to %c4 step %c1
// CHECK:       iree_codegen.dispatch_config @dynamic_n_bias_nt
// CHECK-NEXT:  ^bb0(%{{.+}}: !hal.device, %[[W:.+]]: index):
// CHECK:         %[[UP:.+]] = arith.addi %[[W]], %{{.+}} : index
// CHECK:         %[[COLS:.+]] = arith.divui %[[UP]], %{{.+}} : index
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    iree_codegen.yield %[[COLS]], %[[C1]], %[[C1]] : index, index, index
#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_n_bias_nt() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %n = iree_tensor_ext.dispatch.workload.ordinal %1, 0 : index
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<40x64xf32>>
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%n}
  %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n}
  %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<40x?xf32>>{%n}
  %a = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [40, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<40x64xf32>> -> tensor<40x64xf32>
  %b = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0, 0], sizes = [%n, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x64xf32>>{%n} -> tensor<?x64xf32>
  %bias = iree_tensor_ext.dispatch.tensor.load %4, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%n} -> tensor<?xf32>
  %e = tensor.empty(%n) : tensor<40x?xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<40x?xf32>) -> tensor<40x?xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<40x64xf32>, tensor<?x64xf32>) outs(%z : tensor<40x?xf32>) -> tensor<40x?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<40x?xf32>, tensor<?xf32>) outs(%e : tensor<40x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<40x?xf32>
  iree_tensor_ext.dispatch.tensor.store %y, %5, offsets = [0, 0], sizes = [40, %n], strides = [1, 1] : tensor<40x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<40x?xf32>>{%n}
  return
}
iree_codegen.dispatch_config @dynamic_n_bias_nt {
^bb0(%arg0: !hal.device, %arg1: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// Attention's P V as an eager export binds it: a batch matmul of two heads whose M (queries)
// and K (keys) are one workload ordinal. P's reads along K (its contiguous dim) and V's K rows
// are guarded against it, the K loop runs ceil(K / 16) steps, and the count region launches
// ceil(M / 64) workgroups along y, two along z.
// CHECK-LABEL: func.func @dynamic_m_k_batch
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[S:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// CHECK:         %[[P:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<2x?x?xf32, {{.*}}>{%[[S]], %[[S]]}
// CHECK:         %[[Y:.+]] = gpu.block_id  y upper_bound 65535
// CHECK:         %[[ROW0:.+]] = arith.muli %[[Y]], %c64 : index
// CHECK:         %[[ROW:.+]] = arith.addi %[[ROW0]], %{{.+}} : index
// CHECK-NEXT:    %[[COL:.+]] = arith.addi %c0, %{{.+}} : index
// CHECK:         %[[IN_M:.+]] = arith.cmpi ult, %[[ROW]], %[[S]] : index
// CHECK-NEXT:    %[[IN_K:.+]] = arith.cmpi ult, %[[COL]], %[[S]] : index
// CHECK-NEXT:    %[[IN:.+]] = arith.andi %[[IN_M]], %[[IN_K]] : i1
// CHECK-NEXT:    scf.if %[[IN]] -> (vector<1xf32>) {
// CHECK:           vector.transfer_read %[[P]][%{{.+}}, %[[ROW]], %[[COL]]]{{.*}} : memref<2x?x?xf32, {{.*}}>, vector<1xf32>
// CHECK:         %[[UP:.+]] = arith.addi %[[S]], %c15 : index
// CHECK-NEXT:    %[[STEPS:.+]] = arith.divui %[[UP]], %c16 : index
// CHECK-NEXT:    scf.for %{{.+}} = %c0 to %[[STEPS]] step %c1
// CHECK:       iree_codegen.dispatch_config @dynamic_m_k_batch
// CHECK-NEXT:  ^bb0(%{{.+}}: !hal.device, %[[W:.+]]: index):
// CHECK:         %[[UP_M:.+]] = arith.addi %[[W]], %{{.+}} : index
// CHECK:         %[[ROWS:.+]] = arith.divui %[[UP_M]], %{{.+}} : index
// CHECK-NEXT:    %[[C2:.+]] = arith.constant 2 : index
// CHECK-NEXT:    iree_codegen.yield %{{.+}}, %[[ROWS]], %[[C2]] : index, index, index
#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_m_k_batch() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %s = iree_tensor_ext.dispatch.workload.ordinal %1, 0 : index
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x?x?xf32>>{%s, %s}
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x?x16xf32>>{%s}
  %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x?x16xf32>>{%s}
  %p = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0, 0], sizes = [2, %s, %s], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x?x?xf32>>{%s, %s} -> tensor<2x?x?xf32>
  %v = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0, 0, 0], sizes = [2, %s, 16], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x?x16xf32>>{%s} -> tensor<2x?x16xf32>
  %e = tensor.empty(%s) : tensor<2x?x16xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x?x16xf32>) -> tensor<2x?x16xf32>
  %r = linalg.batch_matmul ins(%p, %v : tensor<2x?x?xf32>, tensor<2x?x16xf32>) outs(%z : tensor<2x?x16xf32>) -> tensor<2x?x16xf32>
  iree_tensor_ext.dispatch.tensor.store %r, %4, offsets = [0, 0, 0], sizes = [2, %s, 16], strides = [1, 1, 1] : tensor<2x?x16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x?x16xf32>>{%s}
  return
}
iree_codegen.dispatch_config @dynamic_m_k_batch {
^bb0(%arg0: !hal.device, %arg1: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// An f16 product over a dynamic K with both operands M/N-contiguous, as IREE binds it on CUDA
// (flat buffers expanded to [K, 128] and [K, 64]): on sm_90a the wgmma scheme's, its cp.async
// copies of K rows clamped to max(K, 1) - 1 for the address and zero-filled past K (source size 0),
// the K loop's trip count ceil(K / 64) read at run time.
// SM90-LABEL: func.func @dynamic_k_tn_f16
// SM90-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// SM90:         %[[K:.+]] = iree_tensor_ext.dispatch.workload.ordinal %{{.+}}, 0 : index
// SM90-NEXT:    %[[ATLEAST:.+]] = arith.maxui %[[K]], %c1 : index
// SM90-NEXT:    %[[LAST:.+]] = arith.subi %[[ATLEAST]], %c1 : index
// SM90:         %[[ROW:.+]] = arith.addi %c0, %{{.+}} : index
// SM90-NEXT:    %[[CLAMPED:.+]] = arith.minui %[[ROW]], %[[LAST]] : index
// SM90:         %[[IN:.+]] = arith.cmpi ult, %[[ROW]], %[[K]] : index
// SM90:         %[[SIZE:.+]] = arith.select %[[IN]], %{{.+}}, %{{.+}} : index
// SM90-NEXT:    nvgpu.device_async_copy %{{.+}}[%[[CLAMPED]], %{{.+}}], %{{.+}}, 8, %[[SIZE]]
// SM90:         %[[UP:.+]] = arith.addi %[[K]], %c63 : index
// SM90-NEXT:    %[[STEPS:.+]] = arith.divui %[[UP]], %c64 : index
// SM90-NEXT:    scf.for %{{.+}} = %c0 to %[[STEPS]] step %c1
// SM90:           nvvm.wgmma.mma_async
#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_k_tn_f16() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %k = iree_tensor_ext.dispatch.workload.ordinal %1, 0 : index
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x128xf16, #hal.descriptor_type<storage_buffer>>{%k}
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x64xf16, #hal.descriptor_type<storage_buffer>>{%k}
  %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<128x64xf32, #hal.descriptor_type<storage_buffer>>
  %a = iree_codegen.load_from_buffer %2 : memref<?x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<?x128xf16>
  %b = iree_codegen.load_from_buffer %3 : memref<?x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<?x64xf16>
  %e = tensor.empty() : tensor<128x64xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<?x128xf16>, tensor<?x64xf16>) outs(%z : tensor<128x64xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %p = arith.extf %in : f16 to f32
    %q = arith.extf %in_0 : f16 to f32
    %t = arith.mulf %p, %q : f32
    %s = arith.addf %out, %t : f32
    linalg.yield %s : f32
  } -> tensor<128x64xf32>
  iree_codegen.store_to_buffer %r, %4 : tensor<128x64xf32> into memref<128x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @dynamic_k_tn_f16 {
^bb0(%arg0: !hal.device, %arg1: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A dynamic batch: left to IREE, the remark naming it.
// CHECK-LABEL: func.func @dynamic_batch
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.batch_matmul
#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @dynamic_batch() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = arith.index_castui %0 : i32 to index
  %b = iree_tensor_ext.dispatch.workload.ordinal %1, 0 : index
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x32x16xf32>>{%b}
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x16x48xf32>>{%b}
  %4 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x32x48xf32>>{%b}
  %x = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0, 0], sizes = [%b, 32, 16], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x32x16xf32>>{%b} -> tensor<?x32x16xf32>
  %w = iree_tensor_ext.dispatch.tensor.load %3, offsets = [0, 0, 0], sizes = [%b, 16, 48], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x16x48xf32>>{%b} -> tensor<?x16x48xf32>
  %e = tensor.empty(%b) : tensor<?x32x48xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<?x32x48xf32>) -> tensor<?x32x48xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: dynamic shapes (extents read at run time): a dynamic batch; this pass takes a dynamic M, N and K, with the batch static}}
  %r = linalg.batch_matmul ins(%x, %w : tensor<?x32x16xf32>, tensor<?x16x48xf32>) outs(%z : tensor<?x32x48xf32>) -> tensor<?x32x48xf32>
  iree_tensor_ext.dispatch.tensor.store %r, %4, offsets = [0, 0, 0], sizes = [%b, 32, 48], strides = [1, 1, 1] : tensor<?x32x48xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x32x48xf32>>{%b}
  return
}
iree_codegen.dispatch_config @dynamic_batch {
^bb0(%arg0: !hal.device, %arg1: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
  iree_codegen.yield %x, %y, %z : index, index, index
}
