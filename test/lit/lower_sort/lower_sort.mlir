// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-lower-sort)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-lower-sort)' -o %t

#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// ViT-MAE's argsort: 16 keys and their indices, the indices stored in place. The row and each
// element's position go to LDS (16 slots), the bitonic network's 10 steps each compare-exchange
// 8 pairs (8 threads) with a barrier after it, then the indices are stored.
// CHECK:       #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<BaseLowering> workgroup_size = [8, 1, 1] subgroup_size = 32>
// CHECK-LABEL: func.func @argsort
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-sort"]
// CHECK-DAG:     %[[IDX:.+]] = hal.interface.binding.subspan {{.*}} binding(1)
// CHECK-DAG:     %[[K:.+]] = memref.alloc() alignment = 16 : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[I:.+]] = memref.alloc() alignment = 16 : memref<16xi64, #gpu.address_space<workgroup>>
// CHECK-DAG:     %[[P:.+]] = memref.alloc() alignment = 16 : memref<16xi32, #gpu.address_space<workgroup>>
// CHECK:         scf.for
// CHECK:           memref.store %{{.+}}, %[[K]]
// CHECK:           gpu.barrier
// CHECK:           arith.cmpf ole
// CHECK-COUNT-10:  gpu.barrier
// CHECK:           scf.for
// CHECK:             %[[V:.+]] = memref.load %[[I]]
// CHECK:             memref.store %[[V]], %[[IDX]]
// CHECK:           gpu.barrier
func.func @argsort() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1x16xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<1x16xi64, #hal.descriptor_type<storage_buffer>>
  %k = iree_codegen.load_from_buffer %0 : memref<1x16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<1x16xf32>
  %i = iree_codegen.load_from_buffer %1 : memref<1x16xi64, #hal.descriptor_type<storage_buffer>> -> tensor<1x16xi64>
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%k, %i : tensor<1x16xf32>, tensor<1x16xi64>) {
  ^bb0(%a: f32, %b: f32, %c: i64, %d: i64):
    %le = arith.cmpf ole, %a, %b : f32
    iree_linalg_ext.yield %le : i1
  } -> tensor<1x16xf32>, tensor<1x16xi64>
  iree_codegen.store_to_buffer %r#1, %1 : tensor<1x16xi64> into memref<1x16xi64, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @argsort {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// Keys computed in the dispatch (not loaded) are left to IREE, with the reason.
// CHECK-LABEL: func.func @computed_keys
// CHECK-NOT:     ldsopt.lowered_by
func.func @computed_keys() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<4x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @+1 {{ldsopt-lower-sort: left to IREE: computes with linalg.generic; this pass takes iree_linalg_ext.sort ops between whole-tensor loads and stores}}
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.negf %v : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %r = iree_linalg_ext.sort dimension(1) outs(%n : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<4x8xf32>
  iree_codegen.store_to_buffer %r, %1 : tensor<4x8xf32> into memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @computed_keys {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A row of 16384 f32 keys and i64 indices needs 256 KiB of LDS (16 bytes a slot): left to IREE.
// CHECK-LABEL: func.func @past_lds
// CHECK-NOT:     ldsopt.lowered_by
func.func @past_lds() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1x16384xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<1x16384xi64, #hal.descriptor_type<storage_buffer>>
  %k = iree_codegen.load_from_buffer %0 : memref<1x16384xf32, #hal.descriptor_type<storage_buffer>> -> tensor<1x16384xf32>
  %i = iree_codegen.load_from_buffer %1 : memref<1x16384xi64, #hal.descriptor_type<storage_buffer>> -> tensor<1x16384xi64>
  // expected-remark @+1 {{ldsopt-lower-sort: left to IREE: a row of 16384 takes 262144 bytes of LDS, past the target's}}
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%k, %i : tensor<1x16384xf32>, tensor<1x16384xi64>) {
  ^bb0(%a: f32, %b: f32, %c: i64, %d: i64):
    %lt = arith.cmpf olt, %a, %b : f32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<1x16384xf32>, tensor<1x16384xi64>
  iree_codegen.store_to_buffer %r#1, %1 : tensor<1x16384xi64> into memref<1x16384xi64, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @past_lds {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
