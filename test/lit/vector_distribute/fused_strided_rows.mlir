// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute, canonicalize, cse)' | filecheck %s

// Fused rows whose elements lie strided in memory: the reductions run over an outer dim
// (ldsopt-vector-distribute's *Fused rows*, reduction_plan.strided_rows).

// softmax(x, dim=1) of an f16 x [2, 12, 22], as IREE forms it from a PyTorch export: the cast
// to f32 runs over (b, c, w) in memory order, the reductions over S = (b, w, c) read it
// transposed, the maps after them in memory order again; their loops are renamed to S's.
// The rows (b, w) are 44; a tile is 4 consecutive rows (lane % 4), which lie consecutive in
// memory, and 2 lanes on each row (lane / 4) take every other channel: six scalar reads a
// thread at [b, c, w], kept in registers over the three sweeps; the lanes of a row meet by one
// shuffle (xor 4); the results written back at the same [b, c, w]. IREE's own SPIR-V kernel
// for this dispatch gave wrong values on lavapipe.
// CHECK-LABEL: func.func @softmax_over_channels
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    lanes = "parallel_fastest", parallel = array<i64: 1, 1, 4, 1>, {{.*}} reduction = array<i64: 1, 6, 2, 1>, row = "registers"
// CHECK-DAG:     %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0) {{.*}} : memref<2x12x22xf16
// CHECK-DAG:     %[[Y:.+]] = hal.interface.binding.subspan {{.*}} binding(1) {{.*}} : memref<2x12x22xf16
// CHECK:         %[[TID:.+]] = gpu.thread_id x upper_bound 8
// CHECK:         %[[LANE:.+]] = arith.remui %[[TID]], %c8
// CHECK:         %[[LANE_P:.+]] = arith.remui %[[LANE]], %c4
// CHECK:         %[[LANE_R:.+]] = arith.divui %[[LANE]], %c4
// CHECK:         %[[R:.+]] = arith.addi %{{.+}}, %[[LANE_R]]
// CHECK:         scf.for %[[TILE:.+]] = %{{.+}} to %c11 step %c11 {
// CHECK:           %[[FIRST:.+]] = arith.muli %[[TILE]], %c4
// CHECK:           %[[ROW:.+]] = arith.addi %[[FIRST]], %[[LANE_P]]
// CHECK-DAG:       %[[W:.+]] = arith.remui %[[ROW]], %c22
// CHECK-DAG:       %[[B:.+]] = arith.divui %[[ROW]], %c22
// CHECK:           %[[X0:.+]] = vector.transfer_read %[[X]][%[[B]], %[[R]], %[[W]]], {{.*}} vector<1xf16>
// CHECK-COUNT-5:   vector.transfer_read %[[X]][%[[B]], %{{.+}}, %[[W]]], {{.*}} vector<1xf16>
// CHECK-NOT:       vector.transfer_read
// CHECK:           gpu.shuffle xor %{{.+}}, %c4_i32, %c8_i32 : f32
// CHECK:           math.exp
// CHECK:           gpu.shuffle xor %{{.+}}, %c4_i32, %c8_i32 : f32
// CHECK-NOT:       gpu.barrier
// CHECK:           vector.transfer_write %{{.+}}, %[[Y]][%[[B]], %[[R]], %[[W]]] {{.*}} : vector<1xf16>
// CHECK-COUNT-5:   vector.transfer_write %{{.+}}, %[[Y]][%[[B]], %{{.+}}, %[[W]]]

#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#col = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @softmax_over_channels() {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x12x22xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x12x22xf16, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2x12x22xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x12x22xf16>
  %e = tensor.empty() : tensor<2x12x22xf32>
  %eh = tensor.empty() : tensor<2x12x22xf16>
  %er = tensor.empty() : tensor<2x22xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x22xf32>) -> tensor<2x22xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<2x22xf32>) -> tensor<2x22xf32>
  %xf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x12x22xf16>) outs(%e : tensor<2x12x22xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<2x12x22xf32>
  %m = linalg.generic {indexing_maps = [#tr, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xf : tensor<2x12x22xf32>) outs(%fm : tensor<2x22xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.maximumf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<2x22xf32>
  %ex = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%xf, %m : tensor<2x12x22xf32>, tensor<2x22xf32>) outs(%e : tensor<2x12x22xf32>) {
  ^bb0(%in: f32, %mm: f32, %out: f32):
    %d = arith.subf %in, %mm : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<2x12x22xf32>
  %s = linalg.generic {indexing_maps = [#tr, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<2x12x22xf32>) outs(%fz : tensor<2x22xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<2x22xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %s : tensor<2x12x22xf32>, tensor<2x22xf32>) outs(%eh : tensor<2x12x22xf16>) {
  ^bb0(%in: f32, %ss: f32, %out: f16):
    %d = arith.divf %in, %ss : f32
    %v = arith.truncf %d : f32 to f16
    linalg.yield %v : f16
  } -> tensor<2x12x22xf16>
  iree_codegen.store_to_buffer %y, %1 : tensor<2x12x22xf16> into memref<2x12x22xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// x - max(x) over the rows of x [16, 8], written transposed (as ConvNeXt writes its
// LayerNorm back to NCHW): x is read along the rows, the output across them, so the rows are
// scalars; a thread a row (16 rows, tiles of 8), each reading its 8 elements of row %ROW and
// writing them to column %ROW of the output, coalesced. IREE's own SPIR-V kernel for
// ConvNeXt's such dispatch gave wrong values on lavapipe.
// CHECK-LABEL: func.func @transposed_consumer
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    parallel = array<i64: 1, 1, 8, 1>, {{.*}} reduction = array<i64: 1, 8, 1, 1>
// CHECK:         scf.for
// CHECK:           %[[ROW:.+]] = arith.addi
// CHECK-COUNT-8:   vector.transfer_read %{{.+}}[%[[ROW]], %{{.+}}], {{.*}} vector<1xf32>
// CHECK-NOT:       gpu.shuffle
// CHECK-COUNT-8:   vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %[[ROW]]] {{.*}} : vector<1xf32>
func.func @transposed_consumer() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0xFF800000 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<8x16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<16x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x8xf32>
  %3 = tensor.empty() : tensor<16xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<16xf32>) -> tensor<16xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<16x8xf32>) outs(%4 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.maximumf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<16xf32>
  %6 = tensor.empty() : tensor<8x16xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%2, %5 : tensor<16x8xf32>, tensor<16xf32>) outs(%6 : tensor<8x16xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %8 = arith.subf %in, %m : f32
    linalg.yield %8 : f32
  } -> tensor<8x16xf32>
  iree_codegen.store_to_buffer %7, %1 : tensor<8x16xf32> into memref<8x16xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// max and x - max over dim 0 of x [64, 4]: 4 rows of 64, strided by 4. One tile of the 4 rows
// (lane % 4), 2 lanes on each, and the subgroups the rows leave on them too (the grid of one
// workgroup leaves compute units idle): 4 subgroups, whose partials meet through LDS, each
// thread reading its row's column of them (no padding: the lanes read consecutive words).
// CHECK-LABEL: func.func @few_long_rows
// CHECK-SAME:    parallel = array<i64: 1, 1, 4, 1>, {{.*}} reduction = array<i64: 4, 8, 2, 1>
// CHECK:         %[[LDS:.+]] = memref.alloc() alignment = 16 : memref<4x4xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.shuffle xor %{{.+}}, %c4_i32, %c8_i32 : f32
// CHECK:         memref.store %{{.+}}, %[[LDS]][%[[SG:.+]], %[[P:.+]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.barrier
// CHECK:         scf.for %[[K:.+]] = %c0 to %c4 step %c1
// CHECK:           memref.load %[[LDS]][%[[K]], %[[P]]]
func.func @few_long_rows() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0xFF800000 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x4xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<64x4xf32, #hal.descriptor_type<storage_buffer>>
  %2 = iree_codegen.load_from_buffer %0 : memref<64x4xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x4xf32>
  %3 = tensor.empty() : tensor<4xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4xf32>) -> tensor<4xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%2 : tensor<64x4xf32>) outs(%4 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.maximumf %in, %out : f32
    linalg.yield %6 : f32
  } -> tensor<4xf32>
  %6 = tensor.empty() : tensor<64x4xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2, %5 : tensor<64x4xf32>, tensor<4xf32>) outs(%6 : tensor<64x4xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %8 = arith.subf %in, %m : f32
    linalg.yield %8 : f32
  } -> tensor<64x4xf32>
  iree_codegen.store_to_buffer %7, %1 : tensor<64x4xf32> into memref<64x4xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// MobileViT's LayerNorm folded back into patches: rows (i, j) of 16 read along memory, each
// element normalized and stored at [c, j, i], contiguous along the rows' first dim (i): the rows
// are strided, the stores scalar at the permuted coordinates.
// CHECK-LABEL: func.func @norm_stored_along_first_row_dim
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK:         %[[Y:.+]] = hal.interface.binding.subspan {{.*}} binding(2) {{.*}} : memref<16x4x4xf32
// CHECK:         math.rsqrt
// CHECK:         vector.transfer_write %{{.+}}, %[[Y]][%[[C:.+]], %[[J:.+]], %[[I:.+]]] {{.*}} : vector<1xf32>
func.func @norm_stored_along_first_row_dim() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant 1.600000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x4x16xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<16x4x4xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<4x4x16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<4x4x16xf32>
  %g = iree_codegen.load_from_buffer %1 : memref<16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16xf32>
  %er = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%er : tensor<4x4xf32>) -> tensor<4x4xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x4x16xf32>) outs(%f : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    %a = arith.addf %m, %out : f32
    linalg.yield %a : f32
  } -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<16x4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %ss, %g : tensor<4x4x16xf32>, tensor<4x4xf32>, tensor<16xf32>) outs(%e : tensor<16x4x4xf32>) {
  ^bb0(%in: f32, %s: f32, %gg: f32, %out: f32):
    %d = arith.divf %s, %n : f32
    %a = arith.addf %d, %eps : f32
    %q = math.rsqrt %a : f32
    %v = arith.mulf %in, %q : f32
    %w = arith.mulf %v, %gg : f32
    linalg.yield %w : f32
  } -> tensor<16x4x4xf32>
  iree_codegen.store_to_buffer %y, %2 : tensor<16x4x4xf32> into memref<16x4x4xf32, #hal.descriptor_type<storage_buffer>>
  return
}
