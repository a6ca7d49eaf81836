// Bodies that gather rows of a table (ldsopt/codegen/gather.py): tensor.extract of a loaded
// table at indices read once per vector, its last index the position along the output's fastest
// dim (and, read by element, one down a column). Eager BERT's token-type embedding at load (the tiny model's initializer as IREE configures
// it for CUDA, and for lavapipe at the end) is a double gather, table[ids[pos[i]], j], the positions a
// slice of a binding; an embedding; a body that also computes with the positions; and the forms
// left to IREE, each with its remark.
// RUN: lds-opt %s --split-input-file --target=cuda --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-lower-elementwise, canonicalize, cse)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-lower-elementwise, canonicalize, cse)' | filecheck %s --check-prefix=VK

// The token types: the row index read from a table at the position id, once per vector (two
// scalar loads); the table's row read as one aligned 128-bit load from the vector's column.
// CHECK-LABEL: func.func @token_type_embedding
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK:         scf.for
// CHECK:           %[[POS:.+]] = memref.load %{{.+}}[%[[ROW:.+]]] : memref<7xi64
// CHECK:           %[[P:.+]] = arith.index_cast %[[POS]] : i64 to index
// CHECK:           %[[TYPE:.+]] = memref.load %{{.+}}[%[[P]]] : memref<32xi64
// CHECK:           %[[T:.+]] = arith.index_cast %[[TYPE]] : i64 to index
// CHECK:           %[[V:.+]] = vector.load %{{.+}}[%[[T]], %[[COL:.+]]] alignment = 16 : memref<2x32xf32, {{.+}}>, vector<4xf32>
// CHECK:           vector.transfer_write %[[V]], %{{.+}}[%[[ROW]], %[[COL]]] {in_bounds = [true]} : vector<4xf32>, memref<7x32xf32
// CHECK-NOT:       tensor.extract
func.func @token_type_embedding() {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<1x32xi64, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(0) alignment(64) offset(%c256) flags(ReadOnly) : memref<32xi64, strided<[1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<2x32xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(2) alignment(64) offset(%c0) flags("None") : memref<7x32xf32, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %1 : memref<32xi64, strided<[1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<32xi64>
  %5 = iree_codegen.load_from_buffer %2 : memref<2x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x32xf32>
  %6 = tensor.empty() : tensor<7x32xf32>
  %subview = memref.subview %0[0, 0] [1, 7] [1, 1] : memref<1x32xi64, #hal.descriptor_type<storage_buffer>> to memref<7xi64, strided<[1]>, #hal.descriptor_type<storage_buffer>>
  %7 = iree_codegen.load_from_buffer %subview : memref<7xi64, strided<[1]>, #hal.descriptor_type<storage_buffer>> -> tensor<7xi64>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<7xi64>) outs(%6 : tensor<7x32xf32>) {
  ^bb0(%in: i64, %out: f32):
    %9 = arith.index_cast %in : i64 to index
    %extracted = tensor.extract %4[%9] : tensor<32xi64>
    %10 = arith.index_cast %extracted : i64 to index
    %11 = linalg.index 1 : index
    %extracted_0 = tensor.extract %5[%10, %11] : tensor<2x32xf32>
    linalg.yield %extracted_0 : f32
  } -> tensor<7x32xf32>
  iree_codegen.store_to_buffer %8, %3 : tensor<7x32xf32> into memref<7x32xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @token_type_embedding {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// An embedding of f16 rows of a prime length (37): vectors of one element, each row's
// element read at the id (i32) of its row.
// CHECK-LABEL: func.func @embedding_f16_prime_row
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK:         scf.for
// CHECK:           %[[ID:.+]] = memref.load %{{.+}}[%{{.+}}] : memref<5xi32
// CHECK:           %[[I:.+]] = arith.index_cast %[[ID]] : i32 to index
// CHECK:           vector.transfer_read %{{.+}}[%[[I]], %{{.+}}]{{.*}} : memref<61x37xf16, {{.+}}>, vector<1xf16>
func.func @embedding_f16_prime_row() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<61x37xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<5xi32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(2) alignment(64) offset(%c0) flags("None") : memref<5x37xf16, #hal.descriptor_type<storage_buffer>>
  %table = iree_codegen.load_from_buffer %0 : memref<61x37xf16, #hal.descriptor_type<storage_buffer>> -> tensor<61x37xf16>
  %ids = iree_codegen.load_from_buffer %1 : memref<5xi32, #hal.descriptor_type<storage_buffer>> -> tensor<5xi32>
  %e = tensor.empty() : tensor<5x37xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<5xi32>) outs(%e : tensor<5x37xf16>) {
  ^bb0(%in: i32, %out: f16):
    %i = arith.index_cast %in : i32 to index
    %j = linalg.index 1 : index
    %x = tensor.extract %table[%i, %j] : tensor<61x37xf16>
    linalg.yield %x : f16
  } -> tensor<5x37xf16>
  iree_codegen.store_to_buffer %r, %2 : tensor<5x37xf16> into memref<5x37xf16, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @embedding_f16_prime_row {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// The body computes with the positions too: the columns past a row's id are zeroed. The row
// index is computed once per vector, the column's positions are the lanes'.
// CHECK-LABEL: func.func @embedding_masked_columns
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK-DAG:     %[[LANES:.+]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
// CHECK:         scf.for
// CHECK:           %[[I:.+]] = arith.index_cast %{{.+}} : i32 to index
// CHECK:           %[[ROWV:.+]] = vector.load %{{.+}}[%[[I]], %[[COL:.+]]] alignment = 16 : memref<61x32xf32, {{.+}}>, vector<4xf32>
// CHECK:           %[[C:.+]] = vector.broadcast %[[COL]] : index to vector<4xindex>
// CHECK:           %[[J:.+]] = arith.addi %[[C]], %[[LANES]] : vector<4xindex>
// CHECK:           %[[KEEP:.+]] = arith.cmpi ult, %[[J]], %{{.+}} : vector<4xindex>
// CHECK:           arith.select %[[KEEP]], %[[ROWV]], %{{.+}} : vector<4xi1>, vector<4xf32>
func.func @embedding_masked_columns() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<61x32xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<3xi32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(2) alignment(64) offset(%c0) flags("None") : memref<3x32xf32, #hal.descriptor_type<storage_buffer>>
  %table = iree_codegen.load_from_buffer %0 : memref<61x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<61x32xf32>
  %ids = iree_codegen.load_from_buffer %1 : memref<3xi32, #hal.descriptor_type<storage_buffer>> -> tensor<3xi32>
  %e = tensor.empty() : tensor<3x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<3xi32>) outs(%e : tensor<3x32xf32>) {
  ^bb0(%in: i32, %out: f32):
    %i = arith.index_cast %in : i32 to index
    %j = linalg.index 1 : index
    %x = tensor.extract %table[%i, %j] : tensor<61x32xf32>
    %keep = arith.cmpi ult, %j, %i : index
    %y = arith.select %keep, %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<3x32xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<3x32xf32> into memref<3x32xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @embedding_masked_columns {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A scattered gather, the table read down a column (table[j, ids[i]]): a vector of it would be
// a read per lane, so the kernel is scalar: one element a thread a step, each table read a load
// at its indices as computed.
// CHECK-LABEL: func.func @gather_down_columns
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// CHECK:         scf.for
// CHECK:           %[[ID:.+]] = memref.load %{{.+}}[%[[I:.+]]] : memref<3xi32
// CHECK:           %[[C:.+]] = arith.index_cast %[[ID]] : i32 to index
// CHECK:           %[[X:.+]] = memref.load %{{.+}}[%[[J:.+]], %[[C]]] : memref<32x61xf32
// CHECK:           memref.store %[[X]], %{{.+}}[%[[I]], %[[J]]] : memref<3x32xf32
func.func @gather_down_columns() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<32x61xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<3xi32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(2) alignment(64) offset(%c0) flags("None") : memref<3x32xf32, #hal.descriptor_type<storage_buffer>>
  %table = iree_codegen.load_from_buffer %0 : memref<32x61xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32x61xf32>
  %ids = iree_codegen.load_from_buffer %1 : memref<3xi32, #hal.descriptor_type<storage_buffer>> -> tensor<3xi32>
  %e = tensor.empty() : tensor<3x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<3xi32>) outs(%e : tensor<3x32xf32>) {
  ^bb0(%in: i32, %out: f32):
    %i = arith.index_cast %in : i32 to index
    %j = linalg.index 1 : index
    %x = tensor.extract %table[%j, %i] : tensor<32x61xf32>
    linalg.yield %x : f32
  } -> tensor<3x32xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<3x32xf32> into memref<3x32xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @gather_down_columns {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// A table that is a constant of the dispatch, not a loaded binding: left to IREE.
// CHECK-LABEL: func.func @constant_table
// CHECK-NOT:     ldsopt.lowered_by
func.func @constant_table() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant dense<1.0> : tensor<2x32xf32>
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : memref<61x32xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : memref<3xi32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(2) alignment(64) offset(%c0) flags("None") : memref<3x32xf32, #hal.descriptor_type<storage_buffer>>
  %table = iree_codegen.load_from_buffer %0 : memref<61x32xf32, #hal.descriptor_type<storage_buffer>> -> tensor<61x32xf32>
  %ids = iree_codegen.load_from_buffer %1 : memref<3xi32, #hal.descriptor_type<storage_buffer>> -> tensor<3xi32>
  %e = tensor.empty() : tensor<3x32xf32>
  // expected-remark @+1 {{ldsopt-lower-elementwise: left to IREE: a tensor.extract of a tensor that is not a static one loaded from a binding}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<3xi32>) outs(%e : tensor<3x32xf32>) {
  ^bb0(%in: i32, %out: f32):
    %i = arith.index_cast %in : i32 to index
    %j = linalg.index 1 : index
    %x = tensor.extract %cst[%i, %j] : tensor<2x32xf32>
    linalg.yield %x : f32
  } -> tensor<3x32xf32>
  iree_codegen.store_to_buffer %r, %2 : tensor<3x32xf32> into memref<3x32xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @constant_table {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

// The same on Vulkan (as IREE configures it for lavapipe): loads of the bindings, the ids at a
// byte offset, the positions a slice; on SPIR-V a vector of four f32 (128 bits).
// CHECK-LABEL: func.func @token_type_embedding_vulkan
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// VK-LABEL: func.func @token_type_embedding_vulkan
// VK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-elementwise"]
// VK-DAG:     %[[POS:.+]] = memref.subview %{{.+}}[0, 0] [1, 7] [1, 1] : memref<1x32xi64, {{.+}}> to memref<7xi64, strided<[1]>, {{.+}}>
// VK:         scf.for
// VK:           %[[P:.+]] = memref.load %[[POS]][%[[ROW:.+]]] : memref<7xi64
// VK:           %[[TYPE:.+]] = memref.load %{{.+}}[%{{.+}}] : memref<32xi64, strided<[1], offset: ?>
// VK:           %[[T:.+]] = arith.index_cast %[[TYPE]] : i64 to index
// VK:           %[[V:.+]] = vector.transfer_read %{{.+}}[%[[T]], %[[COL:.+]]], %{{.+}} {in_bounds = [true]} : memref<2x32xf32, {{.+}}>, vector<4xf32>
// VK:           vector.transfer_write %[[V]], %{{.+}}[%[[ROW]], %[[COL]]] {in_bounds = [true]} : vector<4xf32>, memref<7x32xf32
func.func @token_type_embedding_vulkan() {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32xi64>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(0) alignment(64) offset(%c256) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32xi64>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x32xf32>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>], flags = None>) binding(2) alignment(64) offset(%c0) flags("None") : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<7x32xf32>>
  %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0], sizes = [32], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32xi64>> -> tensor<32xi64>
  %5 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [2, 32], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x32xf32>> -> tensor<2x32xf32>
  %6 = tensor.empty() : tensor<7x32xf32>
  %7 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [1, 7], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x32xi64>> -> tensor<7xi64>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<7xi64>) outs(%6 : tensor<7x32xf32>) {
  ^bb0(%in: i64, %out: f32):
    %9 = arith.index_cast %in : i64 to index
    %extracted = tensor.extract %4[%9] : tensor<32xi64>
    %10 = arith.index_cast %extracted : i64 to index
    %11 = linalg.index 1 : index
    %extracted_0 = tensor.extract %5[%10, %11] : tensor<2x32xf32>
    linalg.yield %extracted_0 : f32
  } -> tensor<7x32xf32>
  iree_tensor_ext.dispatch.tensor.store %8, %3, offsets = [0, 0], sizes = [7, 32], strides = [1, 1] : tensor<7x32xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<7x32xf32>>
  return
}
iree_codegen.dispatch_config @token_type_embedding_vulkan {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
