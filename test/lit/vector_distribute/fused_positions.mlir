// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-vector-distribute, canonicalize, cse)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-vector-distribute)' -o %t

// Row bodies that compute with the element's position (linalg.index): each index is the
// kernel's coordinate along its loop's dim, broadcast over the chunk's lanes for a row dim, the
// chunk's first position plus each lane's for the row's own dim, a scalar in a row map.

// The softmax dispatch of transformers' BertModel (attn_implementation="eager", f32, 2 heads,
// 7 tokens) as IREE forms it from the torch export: its mask reads the query's position
// (linalg.index 1, a row dim), cast to i64 and compared, in each of the three generics. Rows of
// 7: vectors of one element; the row (head d0, query d1) delinearized from the tile.
// CHECK-LABEL: func.func @bert_eager_softmax
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-SAME:    parallel_dims = array<i64: 0, 1>, passes = 3 : i64, reduced_dims = array<i64: 2>
// CHECK-DAG:     %[[ZERO64:.+]] = arith.constant dense<0> : vector<1xi64>
// CHECK-DAG:     %[[FLOOR:.+]] = arith.constant dense<-3.40282347E+38> : vector<1xf32>
// CHECK-DAG:     %[[ZEROS:.+]] = arith.constant dense<0.000000e+00> : vector<1xf32>
// CHECK:         scf.for %[[TILE:.+]] = %{{.+}} to %c14 step %c14 {
// CHECK:           %[[QUERY:.+]] = arith.remui %[[TILE]], %c7 : index
// CHECK:           %[[HEAD:.+]] = arith.divui %[[TILE]], %c7 : index
// CHECK:           %[[X:.+]] = vector.transfer_read %{{.+}}[%[[HEAD]], %[[QUERY]], %{{.+}}]
// CHECK:           %[[QV:.+]] = vector.broadcast %[[QUERY]] : index to vector<1xindex>
// CHECK:           %[[Q64:.+]] = arith.index_cast %[[QV]] : vector<1xindex> to vector<1xi64>
// CHECK:           %[[KEEP:.+]] = arith.cmpi sge, %[[Q64]], %[[ZERO64]] : vector<1xi64>
// CHECK:           %[[BIAS:.+]] = arith.select %[[KEEP]], %[[ZEROS]], %[[FLOOR]] : vector<1xi1>, vector<1xf32>
// CHECK:           %[[SCALED:.+]] = arith.mulf %[[X]], %{{.+}} : vector<1xf32>
// CHECK:           arith.addf %[[SCALED]], %[[BIAS]] : vector<1xf32>
// CHECK-NOT:       linalg.index
// CHECK:           vector.transfer_write %{{.+}}, %{{.+}}[%[[HEAD]], %[[QUERY]], %{{.+}}]
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @bert_eager_softmax() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0xFFC00000 : f32
  %c0_i64 = arith.constant 0 : i64
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant -3.40282347E+38 : f32
  %cst_2 = arith.constant 2.500000e-01 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x7x7xf32>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x7x7xf32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [2, 7, 7], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x7x7xf32>> -> tensor<2x7x7xf32>
  %3 = tensor.empty() : tensor<2x7x7xf32>
  %4 = tensor.empty() : tensor<2x7xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<2x7xf32>) -> tensor<2x7xf32>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%2 : tensor<2x7x7xf32>) outs(%5 : tensor<2x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %10 = linalg.index 1 : index
    %11 = arith.index_cast %10 : index to i64
    %12 = arith.cmpi sge, %11, %c0_i64 : i64
    %13 = arith.select %12, %cst_0, %cst_1 : f32
    %14 = arith.mulf %in, %cst_2 : f32
    %15 = arith.addf %14, %13 : f32
    %16 = arith.maxnumf %15, %out : f32
    linalg.yield %16 : f32
  } -> tensor<2x7xf32>
  %7 = linalg.fill ins(%cst_0 : f32) outs(%4 : tensor<2x7xf32>) -> tensor<2x7xf32>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%2, %6 : tensor<2x7x7xf32>, tensor<2x7xf32>) outs(%7 : tensor<2x7xf32>) {
  ^bb0(%in: f32, %in_3: f32, %out: f32):
    %10 = linalg.index 1 : index
    %11 = arith.index_cast %10 : index to i64
    %12 = arith.cmpi sge, %11, %c0_i64 : i64
    %13 = arith.select %12, %cst_0, %cst_1 : f32
    %14 = arith.mulf %in, %cst_2 : f32
    %15 = arith.addf %14, %13 : f32
    %16 = arith.subf %15, %in_3 : f32
    %17 = math.exp %16 : f32
    %18 = arith.addf %17, %out : f32
    linalg.yield %18 : f32
  } -> tensor<2x7xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2, %6, %8 : tensor<2x7x7xf32>, tensor<2x7xf32>, tensor<2x7xf32>) outs(%3 : tensor<2x7x7xf32>) {
  ^bb0(%in: f32, %in_3: f32, %in_4: f32, %out: f32):
    %10 = linalg.index 1 : index
    %11 = arith.index_cast %10 : index to i64
    %12 = arith.cmpi sge, %11, %c0_i64 : i64
    %13 = arith.select %12, %cst_0, %cst_1 : f32
    %14 = arith.mulf %in, %cst_2 : f32
    %15 = arith.addf %14, %13 : f32
    %16 = arith.subf %15, %in_3 : f32
    %17 = math.exp %16 : f32
    %18 = arith.divf %17, %in_4 : f32
    linalg.yield %18 : f32
  } -> tensor<2x7x7xf32>
  iree_tensor_ext.dispatch.tensor.store %9, %1, offsets = [0, 0, 0], sizes = [2, 7, 7], strides = [1, 1, 1] : tensor<2x7x7xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x7x7xf32>>
  return
}

// -----

// A causal mask from both positions, in a reduction alone in its dispatch: x[i, j] counts where
// j <= i. Rows of 1000: vectors of 4 (each lane's position the chunk's first plus 0..3).
// CHECK-LABEL: func.func @causal_max
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-DAG:     %[[LANES:.+]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %c8
// CHECK:           %[[X:.+]] = vector.transfer_read %{{.+}}[%[[ROW]], %[[COL:[0-9a-z_]+]]]{{.*}} vector<4xf32>
// CHECK:           %[[I:.+]] = vector.broadcast %[[ROW]] : index to vector<4xindex>
// CHECK:           %[[FIRST:.+]] = vector.broadcast %[[COL]] : index to vector<4xindex>
// CHECK:           %[[J:.+]] = arith.addi %[[FIRST]], %[[LANES]] : vector<4xindex>
// CHECK:           %[[LATER:.+]] = arith.cmpi ugt, %[[J]], %[[I]] : vector<4xindex>
// CHECK:           arith.select %[[LATER]], %{{.+}}, %[[X]] : vector<4xi1>, vector<4xf32>
// CHECK-NOT:     linalg.index
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @causal_max() {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x1000xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<8xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<8x1000xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8x1000xf32>
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x1000xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %later = arith.cmpi ugt, %j, %i : index
    %s = arith.select %later, %ninf, %a : f32
    %y = arith.maximumf %s, %o : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  iree_codegen.store_to_buffer %m, %1 : tensor<8xf32> into memref<8xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A row map of the row's position: the row sum times the row's index, on scalars, once the
// sum is known.
// CHECK-LABEL: func.func @row_map_position
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK:         scf.for %[[ROW:.+]] = %{{.+}} to %c8
// CHECK:           gpu.shuffle xor
// CHECK:           %[[I:.+]] = arith.index_cast %[[ROW]] : index to i32
// CHECK-NEXT:      %[[F:.+]] = arith.sitofp %[[I]] : i32 to f32
// CHECK-NEXT:      %[[Y:.+]] = arith.mulf %{{.+}}, %[[F]] : f32
// CHECK:           memref.store %[[Y]], %{{.+}}[%[[ROW]]]
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @row_map_position() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x1000xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<8xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<8x1000xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8x1000xf32>
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x1000xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %y = arith.mulf %a, %fi : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  iree_codegen.store_to_buffer %r, %1 : tensor<8xf32> into memref<8xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Two reduced dims (h, w; rows of 5 x 40): h is the chunk's own coordinate, broadcast, and w
// the chunk's first plus each lane's; the sum counts x where w < h.
// CHECK-LABEL: func.func @two_reduced_dims
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-vector-distribute"]
// CHECK-DAG:     %[[LANES:.+]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
// CHECK:         scf.for %[[CHUNK:.+]] = %{{.+}} to %c50
// CHECK:           %[[WV:.+]] = arith.remui %[[CHUNK]], %c10 : index
// CHECK:           %[[H:.+]] = arith.divui %[[CHUNK]], %c10 : index
// CHECK:           %[[W:.+]] = arith.muli %[[WV]], %c4 : index
// CHECK:           %[[X:.+]] = vector.transfer_read %{{.+}}[%{{.+}}, %[[H]], %[[W]]]
// CHECK:           %[[HS:.+]] = vector.broadcast %[[H]] : index to vector<4xindex>
// CHECK:           %[[FIRST:.+]] = vector.broadcast %[[W]] : index to vector<4xindex>
// CHECK:           %[[WS:.+]] = arith.addi %[[FIRST]], %[[LANES]] : vector<4xindex>
// CHECK:           %[[BELOW:.+]] = arith.cmpi ult, %[[WS]], %[[HS]] : vector<4xindex>
// CHECK:           arith.select %[[BELOW]], %[[X]], %{{.+}} : vector<4xi1>, vector<4xf32>
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @two_reduced_dims() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x5x40xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<4xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<4x5x40xf32, #hal.descriptor_type<storage_buffer>> -> tensor<4x5x40xf32>
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : tensor<4x5x40xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %h = linalg.index 1 : index
    %w = linalg.index 2 : index
    %below = arith.cmpi ult, %w, %h : index
    %y0 = arith.select %below, %a, %zero : f32
    %y = arith.addf %y0, %o : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  iree_codegen.store_to_buffer %s, %1 : tensor<4xf32> into memref<4xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A table read at a position computed from linalg.index (RoPE's rotate_half reads x[j ^ 1]) is
// no table read along the row: left to IREE, with why.
// CHECK-LABEL: func.func @computed_gather
// CHECK-NOT:     ldsopt.lowered_by
// CHECK:         tensor.extract
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @computed_gather() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x1000xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x1000xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<8xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<8x1000xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8x1000xf32>
  %t = iree_codegen.load_from_buffer %1 : memref<8x1000xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8x1000xf32>
  %e = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @+1 {{ldsopt-vector-distribute: left to IREE: a body op other than arith, math and linalg.index (or an embedding's table read along the row)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x1000xf32>) outs(%e2 : tensor<8x1000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.xori %j, %c1 : index
    %g = tensor.extract %t[%i, %k] : tensor<8x1000xf32>
    %y = arith.mulf %a, %g : f32
    linalg.yield %y : f32
  } -> tensor<8x1000xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<8x1000xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  iree_codegen.store_to_buffer %s, %2 : tensor<8xf32> into memref<8xf32, #hal.descriptor_type<storage_buffer>>
  return
}
