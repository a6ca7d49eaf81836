// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-lower-scan)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-lower-scan)' -o %t

#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A prefix sum of 3 rows of 1000: 256 threads of 4 elements, a workgroup a row. Each thread's
// partial goes to LDS, the 256 partials are scanned there in 8 steps (a barrier between each
// read and write), then each thread stores its prefixes from the partials before it; the last
// thread stores the row's total.
// CHECK:       #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<BaseLowering> workgroup_size = [256, 1, 1] subgroup_size = 32>
// CHECK-LABEL: func.func @rows
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-scan"]
// CHECK-DAG:     %[[IN:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK-DAG:     %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(1)
// CHECK-DAG:     %[[TOT:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[P:.+]] = memref.alloc() alignment = 16 : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[ROW:.+]] =
// CHECK:           %[[PART:.+]] = scf.for {{.*}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (f32)
// CHECK:             memref.load %[[IN]][%[[ROW]], %{{.+}}]
// CHECK:             arith.addf %[[ACC]], %{{.+}} : f32
// CHECK:           memref.store %[[PART]], %[[P]]
// CHECK-COUNT-17:  gpu.barrier
// CHECK:           scf.for {{.*}} -> (f32)
// CHECK:             memref.store %{{.+}}, %[[OUT]][%[[ROW]], %{{.+}}]
// CHECK:           scf.if
// CHECK:             memref.store %{{.+}}, %[[TOT]][%[[ROW]]]
// CHECK:           gpu.barrier
// CHECK:       iree_codegen.dispatch_config @rows
// CHECK:         arith.constant 3 : index
func.func @rows() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x1000xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<3x1000xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<3xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<3x1000xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x1000xf32>
  %e = tensor.empty() : tensor<3x1000xf32>
  %ea = tensor.empty() : tensor<3xf32>
  %o = linalg.fill ins(%cst : f32) outs(%e : tensor<3x1000xf32>) -> tensor<3x1000xf32>
  %a = linalg.fill ins(%cst : f32) outs(%ea : tensor<3xf32>) -> tensor<3xf32>
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<3x1000xf32>) outs(%o, %a : tensor<3x1000xf32>, tensor<3xf32>) {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<3x1000xf32>, tensor<3xf32>
  iree_codegen.store_to_buffer %r#0, %1 : tensor<3x1000xf32> into memref<3x1000xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %r#1, %2 : tensor<3xf32> into memref<3xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @rows {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// RoBERTa's position ids: 9 i64 along dim 1 of [1, 9], the total unused: 16 threads of one
// element (the row rounded up to a power of two), 4 steps.
// CHECK:       #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<BaseLowering> workgroup_size = [16, 1, 1] subgroup_size = 32>
// CHECK-LABEL: func.func @position_ids
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-lower-scan"]
// CHECK:         memref.alloc() alignment = 16 : memref<16xi64, #gpu.address_space<workgroup>>
// CHECK:         arith.addi %{{.+}}, %{{.+}} : i64
// CHECK-NOT:     scf.if
func.func @position_ids() {
  %c0 = arith.constant 0 : index
  %c0_i64 = arith.constant 0 : i64
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1x9xi64, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<1x9xi64, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<1x9xi64, #hal.descriptor_type<storage_buffer>> -> tensor<1x9xi64>
  %e = tensor.empty() : tensor<1x9xi64>
  %ea = tensor.empty() : tensor<1xi64>
  %o = linalg.fill ins(%c0_i64 : i64) outs(%e : tensor<1x9xi64>) -> tensor<1x9xi64>
  %a = linalg.fill ins(%c0_i64 : i64) outs(%ea : tensor<1xi64>) -> tensor<1xi64>
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<1x9xi64>) outs(%o, %a : tensor<1x9xi64>, tensor<1xi64>) {
  ^bb0(%p: i64, %q: i64):
    %s = arith.addi %p, %q : i64
    iree_linalg_ext.yield %s : i64
  } -> tensor<1x9xi64>, tensor<1xi64>
  iree_codegen.store_to_buffer %r#0, %1 : tensor<1x9xi64> into memref<1x9xi64, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @position_ids {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A running max (not a sum or a product) is left to IREE, with the reason.
// CHECK-LABEL: func.func @running_max
// CHECK-NOT:     ldsopt.lowered_by
func.func @running_max() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0xFF800000 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<4x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %ea = tensor.empty() : tensor<4xf32>
  %o = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %a = linalg.fill ins(%cst : f32) outs(%ea : tensor<4xf32>) -> tensor<4xf32>
  // expected-remark @+1 {{ldsopt-lower-scan: left to IREE: a scan whose body is not one of arith.addi, arith.addf, arith.muli, arith.mulf of its two arguments}}
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<4x8xf32>) outs(%o, %a : tensor<4x8xf32>, tensor<4xf32>) {
  ^bb0(%p: f32, %q: f32):
    %s = arith.maximumf %p, %q : f32
    iree_linalg_ext.yield %s : f32
  } -> tensor<4x8xf32>, tensor<4xf32>
  iree_codegen.store_to_buffer %r#0, %1 : tensor<4x8xf32> into memref<4x8xf32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @running_max {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}

// -----

#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>

// A sum whose accumulator starts at 5 (not the identity) is left to IREE.
// CHECK-LABEL: func.func @offset_start
// CHECK-NOT:     ldsopt.lowered_by
func.func @offset_start() {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : i32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4x8xi32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<4x8xi32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<4x8xi32, #hal.descriptor_type<storage_buffer>> -> tensor<4x8xi32>
  %e = tensor.empty() : tensor<4x8xi32>
  %ea = tensor.empty() : tensor<4xi32>
  %o = linalg.fill ins(%c5 : i32) outs(%e : tensor<4x8xi32>) -> tensor<4x8xi32>
  %a = linalg.fill ins(%c5 : i32) outs(%ea : tensor<4xi32>) -> tensor<4xi32>
  // expected-remark @+1 {{ldsopt-lower-scan: left to IREE: the accumulator does not start at arith.addi's identity (0)}}
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<4x8xi32>) outs(%o, %a : tensor<4x8xi32>, tensor<4xi32>) {
  ^bb0(%p: i32, %q: i32):
    %s = arith.addi %p, %q : i32
    iree_linalg_ext.yield %s : i32
  } -> tensor<4x8xi32>, tensor<4xi32>
  iree_codegen.store_to_buffer %r#0, %1 : tensor<4x8xi32> into memref<4x8xi32, #hal.descriptor_type<storage_buffer>>
  return
}
iree_codegen.dispatch_config @offset_start {
^bb0(%arg0: !hal.device):
  %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
  iree_codegen.yield %x, %y, %z : index, index, index
}
