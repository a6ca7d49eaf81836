// Slices of bindings, read and written: the transposed operand (or the output) is part of a
// binding, whose rows are not collapsed across the slice's gaps and whose vectors start aligned
// with its offset and row strides (and those its run-time offsets step by). CUDA/HIP spell a
// slice as a `memref.subview` of the binding; Vulkan as a load or store at offsets, of which the
// pass builds the same subview.
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-preload-transposed, canonicalize, cse)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-preload-transposed, canonicalize, cse)' | filecheck %s --check-prefix=VK
// RUN: lds-opt %s --split-input-file --target=cuda --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-preload-transposed)' -o %t

// Eager BERT's K^T (the tiny model's dispatch as IREE configures it for CUDA): heads 2..3 of a
// fused [7, 6 heads, 16] projection, [seq, head, dim] -> [head, dim, seq]. (head, dim) stay
// contiguous in the slice and collapse to 32; the slice's rows are 96 apart and start 32
// elements in, so the LDS rows are filled with vector<4>.
// CHECK-LABEL: func.func @bert_k_slice_transpose
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-preload-transposed"]
// CHECK:         %[[SUB:.+]] = memref.subview %{{.+}}[0, 0, 2, 0] [1, 7, 2, 16] [1, 1, 1, 1]
// CHECK:         %[[K:.+]] = memref.collapse_shape %[[SUB]] {{\[}}[0], [1, 2]] : memref<7x2x16xf32, strided<[96, 16, 1], offset: ?>, {{.+}}> into memref<7x32xf32, strided<[96, 1], offset: ?>, {{.+}}>
// CHECK:         %[[OUT:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1, 2]] : {{.+}} into memref<224xf32, strided<[1], offset: ?>, {{.+}}>
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<7x32xf32, #gpu.address_space<workgroup>>
// The binding's offset (896 bytes) and the slice's keep every vector 16-byte aligned, which the
// global accesses state (LLVM cannot see it through the binding's run-time offset).
// CHECK:         %[[V:.+]] = vector.load %[[K]][%{{.+}}, %{{.+}}] alignment = 16 : memref<7x32xf32, strided<[96, 1], offset: ?>, {{.+}}>, vector<4xf32>
// CHECK:         vector.transfer_write %[[V]], %[[LDS]]
// CHECK:         gpu.barrier
// CHECK:         memref.load %[[LDS]]
// CHECK:         vector.store %{{.+}}, %[[OUT]][%{{.+}}] alignment = 16 : memref<224xf32, strided<[1], offset: ?>, {{.+}}>, vector<4xf32>
// CHECK-NOT:     linalg.generic
func.func @bert_k_slice_transpose() {
  %c896 = arith.constant 896 : index
  %c5376 = arith.constant 5376 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c896) flags("ReadOnly|Indirect") : memref<1x7x6x16xf32, strided<[672, 96, 16, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c5376) flags(Indirect) : memref<2x16x7xf32, strided<[112, 7, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %2 = tensor.empty() : tensor<2x16x7xf32>
  %subview = memref.subview %0[0, 0, 2, 0] [1, 7, 2, 16] [1, 1, 1, 1] : memref<1x7x6x16xf32, strided<[672, 96, 16, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<7x2x16xf32, strided<[96, 16, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %3 = iree_codegen.load_from_buffer %subview : memref<7x2x16xf32, strided<[96, 16, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<7x2x16xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<7x2x16xf32>) outs(%2 : tensor<2x16x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x16x7xf32>
  iree_codegen.store_to_buffer %4, %1 : tensor<2x16x7xf32> into memref<2x16x7xf32, strided<[112, 7, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @bert_k_slice_transpose {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A slice at an unaligned offset (Vulkan's spelling: a load at offsets [0, 1, 3] of 13x5x37,
// 40 elements in, rows 37 apart) with prime extents: its rows of 29 are not contiguous with
// the next head's, so nothing collapses, and no row starts 2-aligned: the LDS tile is filled
// one element at a time; the output (13 prime) is written one element at a time too.
// VK-LABEL: func.func @unaligned_prime
// VK-SAME:    ldsopt.lowered_by = ["ldsopt-preload-transposed"]
// VK:         %[[SUB:.+]] = memref.subview %{{.+}}[0, 1, 3] [13, 3, 29] [1, 1, 1] : memref<13x5x37xf32, {{.+}}> to memref<13x3x29xf32, strided<[185, 37, 1], offset: 40>, {{.+}}>
// VK-NOT:     memref.collapse_shape %[[SUB]]
// VK:         memref.alloc() alignment = 16 : memref<13x3x29xf32, #gpu.address_space<workgroup>>
// VK:         vector.transfer_read %[[SUB]][%{{.+}}, %{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : memref<13x3x29xf32, strided<[185, 37, 1], offset: 40>, {{.+}}>, vector<1xf32>
// VK-NOT:     vector<4xf32>
// VK:         return
func.func @unaligned_prime() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 5.000000e-01 : f32
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x5x37xf32>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3x29x13xf32>>
  %2 = tensor.empty() : tensor<3x29x13xf32>
  %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 1, 3], sizes = [13, 3, 29], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x5x37xf32>> -> tensor<13x3x29xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2, d0)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<13x3x29xf32>) outs(%2 : tensor<3x29x13xf32>) {
  ^bb0(%in: f32, %out: f32):
    %5 = arith.mulf %in, %cst : f32
    linalg.yield %5 : f32
  } -> tensor<3x29x13xf32>
  iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0, 0, 0], sizes = [3, 29, 13], strides = [1, 1, 1] : tensor<3x29x13xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<3x29x13xf32>>
  return
}
iree_codegen.dispatch_config @unaligned_prime {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// The output a slice (a transpose written into columns 4..35 of a 24x48 buffer, as a concat
// writes its parts): its rows are 48 apart and start 4 elements in, so the f16 output is
// stored in vector<4> along its rows where the whole tensor would take vector<8> (CUDA), and
// the alignment stated on the stores is the slice's.
// CHECK-LABEL: func.func @output_slice
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-preload-transposed"]
// CHECK:         %[[OUT:.+]] = memref.subview %{{.+}}[0, 4] [24, 32] [1, 1] : memref<24x48xf16, {{.+}}> to memref<24x32xf16, strided<[48, 1], offset: 4>, {{.+}}>
// CHECK:         vector.load %{{.+}} alignment = 16 : memref<32x24xf16, {{.+}}>, vector<8xf16>
// CHECK:         gpu.barrier
// Stated: 8 bytes (the slice's start), not the vector's 16.
// CHECK:         vector.store %{{.+}}, %[[OUT]][%{{.+}}, %{{.+}}] alignment = 8 : memref<24x32xf16, strided<[48, 1], offset: 4>, {{.+}}>, vector<4xf16>
// VK-LABEL: func.func @output_slice
// VK-SAME:    ldsopt.lowered_by = ["ldsopt-preload-transposed"]
// VK:         %[[OUT:.+]] = memref.subview %{{.+}}[0, 4] [24, 32] [1, 1] : memref<24x48xf16, {{.+}}> to memref<24x32xf16, strided<[48, 1], offset: 4>, {{.+}}>
// VK:         vector.transfer_write %{{.+}}, %[[OUT]][%{{.+}}, %{{.+}}] {in_bounds = [true]} : vector<4xf16>, memref<24x32xf16, strided<[48, 1], offset: 4>, {{.+}}>
func.func @output_slice() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x24xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<24x48xf16, #hal.descriptor_type<storage_buffer>>
  %2 = tensor.empty() : tensor<24x32xf16>
  %3 = iree_codegen.load_from_buffer %0 : memref<32x24xf16, #hal.descriptor_type<storage_buffer>> -> tensor<32x24xf16>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<32x24xf16>) outs(%2 : tensor<24x32xf16>) {
  ^bb0(%in: f16, %out: f16):
    %5 = math.exp %in : f16
    linalg.yield %5 : f16
  } -> tensor<24x32xf16>
  %subview = memref.subview %1[0, 4] [24, 32] [1, 1] : memref<24x48xf16, #hal.descriptor_type<storage_buffer>> to memref<24x32xf16, strided<[48, 1], offset: 4>, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %4, %subview : tensor<24x32xf16> into memref<24x32xf16, strided<[48, 1], offset: 4>, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @output_slice {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A cache's K^T: 13 positions from a row that is a push constant of the dispatch (a workload
// ordinal) of a [64, 96] f16 buffer, columns 32..63. The subview stays as IREE wrote it; a
// run-time row moves the slice by whole rows of 192 bytes, so its rows still start 16-byte
// aligned: vector<8> reads, and that alignment stated.
// CHECK-LABEL: func.func @rows_at_run_time
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-preload-transposed"]
// CHECK:         %[[ROW:.+]] = iree_tensor_ext.dispatch.workload.ordinal
// CHECK:         %[[SUB:.+]] = memref.subview %{{.+}}[%[[ROW]], 32] [13, 32] [1, 1]
// CHECK:         vector.load %[[SUB]][%{{.+}}, %{{.+}}] alignment = 16 : memref<13x32xf16, strided<[96, 1], offset: ?>, {{.+}}>, vector<8xf16>
// CHECK:         gpu.barrier
// CHECK-NOT:     linalg.generic
// CHECK:       iree_codegen.dispatch_config @rows_at_run_time
func.func @rows_at_run_time() {
  %c32_i64 = arith.constant 32 : i64
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
  %2 = arith.extui %0 : i32 to i64
  %3 = arith.extui %1 : i32 to i64
  %4 = arith.shli %3, %c32_i64 : i64
  %5 = arith.ori %2, %4 : i64
  %6 = arith.index_castui %5 : i64 to index
  %7 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x96xf16, #hal.descriptor_type<storage_buffer>>
  %8 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<32x13xf16, #hal.descriptor_type<storage_buffer>>
  %9 = iree_tensor_ext.dispatch.workload.ordinal %6, 0 : index
  %subview = memref.subview %7[%9, 32] [13, 32] [1, 1] : memref<64x96xf16, #hal.descriptor_type<storage_buffer>> to memref<13x32xf16, strided<[96, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %10 = iree_codegen.load_from_buffer %subview : memref<13x32xf16, strided<[96, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<13x32xf16>
  %11 = tensor.empty() : tensor<32x13xf16>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<13x32xf16>) outs(%11 : tensor<32x13xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<32x13xf16>
  iree_codegen.store_to_buffer %12, %8 : tensor<32x13xf16> into memref<32x13xf16, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @rows_at_run_time {
^bb0(%arg0: !hal.device, %arg1: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// Vulkan: a load at a run-time column (a workload ordinal) of a 37x64 binding. The pass builds
// the subview at that load, where the column is defined; a column moves the rows by single
// elements, so they are read one element at a time.
// VK-LABEL: func.func @column_at_run_time
// VK-SAME:    ldsopt.lowered_by = ["ldsopt-preload-transposed"]
// VK:         %[[COL:.+]] = iree_tensor_ext.dispatch.workload.ordinal
// VK:         %[[SUB:.+]] = memref.subview %{{.+}}[0, %[[COL]]] [37, 24] [1, 1] : memref<37x64xf32, {{.+}}> to memref<37x24xf32, strided<[64, 1], offset: ?>, {{.+}}>
// VK:         vector.transfer_read %[[SUB]][%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : memref<37x24xf32, strided<[64, 1], offset: ?>, {{.+}}>, vector<1xf32>
// VK-NOT:     vector.transfer_read %[[SUB]]{{.*}}vector<4xf32>
// VK:         gpu.barrier
func.func @column_at_run_time() {
  %c32_i64 = arith.constant 32 : i64
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
  %2 = arith.extui %0 : i32 to i64
  %3 = arith.extui %1 : i32 to i64
  %4 = arith.shli %3, %c32_i64 : i64
  %5 = arith.ori %2, %4 : i64
  %6 = arith.index_castui %5 : i64 to index
  %7 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<37x64xf32>>
  %8 = hal.interface.binding.subspan layout(<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<24x37xf32>>
  %9 = iree_tensor_ext.dispatch.workload.ordinal %6, 0 : index
  %10 = tensor.empty() : tensor<24x37xf32>
  %11 = iree_tensor_ext.dispatch.tensor.load %7, offsets = [0, %9], sizes = [37, 24], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<37x64xf32>> -> tensor<37x24xf32>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<37x24xf32>) outs(%10 : tensor<24x37xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<24x37xf32>
  iree_tensor_ext.dispatch.tensor.store %12, %8, offsets = [0, 0], sizes = [24, 37], strides = [1, 1] : tensor<24x37xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<24x37xf32>>
  return
}
iree_codegen.dispatch_config @column_at_run_time {
^bb0(%arg0: !hal.device, %arg1: index):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// Left to IREE: a slice at a column the dispatch loads from a binding (not one of its
// workload's values), which the pass does not take; the remark says why.
// CHECK-LABEL: func.func @dynamic_offset
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         linalg.generic
func.func @dynamic_offset() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<i32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<7x96xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<32x7xf32, #hal.descriptor_type<storage_buffer>>
  %i = memref.load %0[] : memref<i32, #hal.descriptor_type<storage_buffer>>
  %o = arith.index_cast %i : i32 to index
  %3 = tensor.empty() : tensor<32x7xf32>
  %subview = memref.subview %1[0, %o] [7, 32] [1, 1] : memref<7x96xf32, #hal.descriptor_type<storage_buffer>> to memref<7x32xf32, strided<[96, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %subview : memref<7x32xf32, strided<[96, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<7x32xf32>
  // expected-remark @+1 {{ldsopt-preload-transposed: left to IREE: reads part of a binding (a tensor slice, not of unit strides, at offsets and of sizes static or computed from the dispatch's workload)}}
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<7x32xf32>) outs(%3 : tensor<32x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x7xf32>
  iree_codegen.store_to_buffer %5, %2 : tensor<32x7xf32> into memref<32x7xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @dynamic_offset {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
