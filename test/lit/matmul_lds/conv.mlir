// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s --check-prefix=CUDA
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' -o %t
// RUN: lds-opt %s --split-input-file --target=cuda \
// RUN:   --pass-pipeline='builtin.module(ldsopt-dtl-layout, ldsopt-matmul-lds)' | filecheck %s --check-prefix=DTL
// RUN: lds-opt %s --split-input-file --target=gfx942 \
// RUN:   --pass-pipeline='builtin.module(ldsopt-dtl-layout, ldsopt-matmul-lds)' | filecheck %s --check-prefix=GFX

// A 3x3 stride-2 NHWC convolution (the image given padded, 2x17x19x16; 37 FHWC filters) with
// its bias and ReLU, as IREE generalizes and fuses it: an implicit GEMM of M = 2*8*9 output
// positions, N = 37 filters, K = 3*3*16. A's rows are gathered from the 4-D image: each
// matrix index split into the convolution's loops (divui, remui), the image's row and column
// `oh * 2 + kh`, `ow * 2 + kw`, a vector of 4 channels read at once (16 channels divide into
// it). The filters are read as [37, 144]. The output's (m, n) goes back to (n, oh, ow, f), where
// the bias is read by f and the result written.
// On CUDA ldsopt-dtl-layout stages both by cp.async, each 16-byte chunk (4 channels) copied
// from its own gathered index (n, 2 oh + kh, 2 ow + kw, c) of the image.
// DTL-LABEL: func.func @conv_bias_relu
// DTL-SAME:    ldsopt.dtl = {A = "direct none", B = "direct rotation<2,4,4>"}
// DTL-SAME:    ldsopt.lowered_by = ["ldsopt-dtl-layout", "ldsopt-matmul-lds"]
// DTL:         %[[OW:.+]] = arith.remui %{{.+}}, %c9 : index
// DTL:         %[[OW2:.+]] = arith.muli %[[OW]], %c2 : index
// DTL-NEXT:    %[[W:.+]] = arith.addi %[[OW2]], %{{.+}} : index
// DTL-NEXT:    nvgpu.device_async_copy %{{.+}}[%{{.+}}, %{{.+}}, %[[W]], %{{.+}}], %{{.+}}[%c0, %{{.+}}], 4 bypassL1 : memref<2x17x19x16xf32, #gpu.address_space<global>>
// CHECK-LABEL: func.func @conv_bias_relu
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         %[[W:.+]] = hal.interface.binding.subspan {{.*}} binding(1)
// CHECK:         %[[BIAS:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(3)
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], {{.*}}operand = "A"{{.*}}vector = 4 : i64}
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["n", "k"], {{.*}}operand = "B"{{.*}}vector = 4 : i64}
// CHECK:         %[[OW:.+]] = arith.remui %{{.+}}, %c9
// CHECK:         %[[Q:.+]] = arith.divui %{{.+}}, %c9
// CHECK:         %[[OH:.+]] = arith.remui %[[Q]], %c8
// CHECK:         %[[N:.+]] = arith.divui %[[Q]], %c8
// CHECK:         %[[C:.+]] = arith.remui %[[K:.+]], %c16
// CHECK:         %[[KQ:.+]] = arith.divui %[[K]], %c16
// CHECK:         %[[KW:.+]] = arith.remui %[[KQ]], %c3
// CHECK:         %[[KH:.+]] = arith.divui %[[KQ]], %c3
// CHECK:         %[[OH2:.+]] = arith.muli %[[OH]], %c2
// CHECK:         %[[H:.+]] = arith.addi %[[OH2]], %[[KH]]
// CHECK:         %[[OW2:.+]] = arith.muli %[[OW]], %c2
// CHECK:         %[[WI:.+]] = arith.addi %[[OW2]], %[[KW]]
// CHECK:         vector.transfer_read %[[X]][%[[N]], %[[H]], %[[WI]], %[[C]]]{{.*}} : memref<2x17x19x16xf32, {{.*}}>, vector<4xf32>
// CHECK:         vector.transfer_read %[[W]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}]{{.*}} : memref<37x3x3x16xf32, {{.*}}>, vector<4xf32>
// CHECK:         vector.transfer_read %[[BIAS]][%{{.+}}]{{.*}} : memref<37xf32, {{.*}}>, vector<1xf32>
// CHECK:         scf.for
// CHECK:           vector.transfer_read %[[X]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}]{{.*}} : memref<2x17x19x16xf32, {{.*}}>, vector<4xf32>
// CHECK:           scf.yield
// CHECK:         %[[R:.+]] = arith.maximumf %{{.+}}, %{{.+}} : vector<1xf32>
// CHECK:         vector.transfer_write %[[R]], %[[OUT]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}]{{.*}} : vector<1xf32>, memref<2x8x9x37xf32
#layout4 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @conv_bias_relu() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout4) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x17x19x16xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout4) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<37x3x3x16xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout4) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<37xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout4) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<2x8x9x37xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2x17x19x16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x17x19x16xf32>
  %w = iree_codegen.load_from_buffer %1 : memref<37x3x3x16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<37x3x3x16xf32>
  %bias = iree_codegen.load_from_buffer %2 : memref<37xf32, #hal.descriptor_type<storage_buffer>> -> tensor<37xf32>
  %e = tensor.empty() : tensor<2x8x9x37xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x8x9x37xf32>) -> tensor<2x8x9x37xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<2x17x19x16xf32>, tensor<37x3x3x16xf32>) outs(%z : tensor<2x8x9x37xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %p = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x8x9x37xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %bias : tensor<2x8x9x37xf32>, tensor<37xf32>) outs(%e : tensor<2x8x9x37xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %t = arith.addf %v, %b : f32
    %u = arith.maximumf %t, %cst : f32
    linalg.yield %u : f32
  } -> tensor<2x8x9x37xf32>
  iree_codegen.store_to_buffer %r, %3 : tensor<2x8x9x37xf32> into memref<2x8x9x37xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// NCHW, as IREE's ONNX import gives it: the batch leads (workgroup z), the filters are A
// [13, 3*7*7] read as they are stored, the image is B [K, N] of each batch, its N = (oh, ow) at
// stride 2 gathered one element at a time along K's window columns (`ow * 2 + kw`).
// CHECK-LABEL: func.func @nchw
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["m", "k"], {{.*}}operand = "A"
// CHECK:         memref.alloc() alignment = 16 {ldsopt.staging = {dims = ["n", "k"], {{.*}}operand = "B"{{.*}}vector = 1 : i64}
// CHECK:         %[[Z:.+]] = gpu.block_id  z upper_bound 2
// CHECK:         vector.transfer_read %[[X]][%[[Z]], %{{.+}}, %{{.+}}, %{{.+}}]{{.*}} : memref<2x3x35x35xf32, {{.*}}>, vector<1xf32>
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @nchw() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x3x35x35xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<13x3x7x7xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2x13x15x15xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2x3x35x35xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x3x35x35xf32>
  %w = iree_codegen.load_from_buffer %1 : memref<13x3x7x7xf32, #hal.descriptor_type<storage_buffer>> -> tensor<13x3x7x7xf32>
  %e = tensor.empty() : tensor<2x13x15x15xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x13x15x15xf32>) -> tensor<2x13x15x15xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<2x3x35x35xf32>, tensor<13x3x7x7xf32>) outs(%z : tensor<2x13x15x15xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %p = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x13x15x15xf32>
  iree_codegen.store_to_buffer %y, %2 : tensor<2x13x15x15xf32> into memref<2x13x15x15xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A batch of one, which IREE drops: the output is (oh, ow, f), the image read at a constant 0.
// CHECK-LABEL: func.func @batch_dropped
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         vector.transfer_read %{{.+}}[%c0, %{{.+}}, %{{.+}}, %{{.+}}]{{.*}} : memref<1x9x9x8xf32, {{.*}}>, vector<4xf32>
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @batch_dropped() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1x9x9x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x3x3x8xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<7x7x16xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<1x9x9x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<1x9x9x8xf32>
  %w = iree_codegen.load_from_buffer %1 : memref<16x3x3x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x3x3x8xf32>
  %e = tensor.empty() : tensor<7x7x16xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<7x7x16xf32>) -> tensor<7x7x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (0, d0 + d3, d1 + d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x9x9x8xf32>, tensor<16x3x3x8xf32>) outs(%z : tensor<7x7x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %p = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<7x7x16xf32>
  iree_codegen.store_to_buffer %y, %2 : tensor<7x7x16xf32> into memref<7x7x16xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A depthwise convolution: the channel loop is read by both the image and the filters, so the
// product is no matmul of one input's loops by the other's; left to IREE with the reason.
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @depthwise() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x9x9x8xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<3x3x8xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2x7x7x8xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2x9x9x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x9x9x8xf32>
  %w = iree_codegen.load_from_buffer %1 : memref<3x3x8xf32, #hal.descriptor_type<storage_buffer>> -> tensor<3x3x8xf32>
  %e = tensor.empty() : tensor<2x7x7x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x7x7x8xf32>) -> tensor<2x7x7x8xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: both inputs read an output loop (a depthwise, grouped or batched convolution); implicit GEMM takes each output loop read by one input}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d4, d2 + d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : tensor<2x9x9x8xf32>, tensor<3x3x8xf32>) outs(%z : tensor<2x7x7x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %p = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x7x7x8xf32>
  iree_codegen.store_to_buffer %y, %2 : tensor<2x7x7x8xf32> into memref<2x7x7x8xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A ResNet shortcut as IREE forms it on CUDA (NCHW, 1x1 stride 2): the image is a strided
// memref.subview loaded whole, and the result goes into the interior of a padded buffer
// (another subview, stored into). The image is read in its whole binding at (2 oh, 2 ow), one
// element at a time (its columns are strided); the result written through the subview, one
// element at a time too: its rows start at element 9 + 8 oh, odd (`Binding.aligned_run`).
// CUDA-LABEL: func.func @shortcut_into_padded
// CUDA-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CUDA:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CUDA:         %[[PAD:.+]] = hal.interface.binding.subspan {{.*}} binding(2)
// CUDA:         %[[INNER:.+]] = memref.subview %[[PAD]][0, 0, 1, 1] [2, 24, 5, 6] [1, 1, 1, 1]
// CUDA:         %[[OH2:.+]] = arith.muli %{{.+}}, %c2
// CUDA:         %[[OW2:.+]] = arith.muli %{{.+}}, %c2
// CUDA:         vector.transfer_read %[[X]][%{{.+}}, %{{.+}}, %[[OH2]], %[[OW2]]]{{.*}} : memref<2x13x9x11xf32, #hal.descriptor_type<storage_buffer>>, vector<1xf32>
// CUDA:         vector.transfer_write %{{.+}}, %[[INNER]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}]{{.*}} : vector<1xf32>, memref<2x24x5x6xf32, strided<[1344, 56, 8, 1], offset: 9>
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @shortcut_into_padded() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x13x9x11xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<24x13xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2x24x7x8xf32, #hal.descriptor_type<storage_buffer>>
  %sv = memref.subview %0[0, 0, 0, 0] [2, 13, 5, 6] [1, 1, 2, 2] : memref<2x13x9x11xf32, #hal.descriptor_type<storage_buffer>> to memref<2x13x5x6xf32, strided<[1287, 99, 22, 2]>, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %sv : memref<2x13x5x6xf32, strided<[1287, 99, 22, 2]>, #hal.descriptor_type<storage_buffer>> -> tensor<2x13x5x6xf32>
  %w = iree_codegen.load_from_buffer %1 : memref<24x13xf32, #hal.descriptor_type<storage_buffer>> -> tensor<24x13xf32>
  %e = tensor.empty() : tensor<2x24x5x6xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x24x5x6xf32>) -> tensor<2x24x5x6xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<2x13x5x6xf32>, tensor<24x13xf32>) outs(%z : tensor<2x24x5x6xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %p = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x24x5x6xf32>
  %inner = memref.subview %2[0, 0, 1, 1] [2, 24, 5, 6] [1, 1, 1, 1] : memref<2x24x7x8xf32, #hal.descriptor_type<storage_buffer>> to memref<2x24x5x6xf32, strided<[1344, 56, 8, 1], offset: 9>, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %y, %inner : tensor<2x24x5x6xf32> into memref<2x24x5x6xf32, strided<[1344, 56, 8, 1], offset: 9>, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// NCHW 3x3 at dilation 2, unpadded (a 20x20 image, 16x16 outputs): the image's rows (80 bytes)
// start 16-byte aligned, but a run of output columns starts at `ow + 2 * kw`, 8 bytes off for
// odd kw. ldsopt-dtl-layout copies the filters and leaves the image to the registers: a 16-byte
// cp.async must start 16-byte aligned (the copy of `ow + 2 * kw` never completed on an H100).
// The register staging reads it 4 wide, no alignment stated (LLVM splits the reads on CUDA).
// DTL-LABEL: func.func @nchw_dilated
// DTL-SAME:    ldsopt.dtl = {A = "direct none", B = "left alone: its aligned contiguous run of 2 elements {{.+}} is not whole 16-byte lanes {{.+}}"}
// DTL-NOT:     nvgpu.device_async_copy {{.*}} : memref<1x8x20x20xf32
// DTL:         vector.transfer_read {{.*}} {in_bounds = [true]} : memref<1x8x20x20xf32, #hal.descriptor_type<storage_buffer>>, vector<4xf32>
// DTL-NOT:     nvgpu.device_async_copy {{.*}} : memref<1x8x20x20xf32
#layout_dil = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @nchw_dilated() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout_dil) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1x8x20x20xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout_dil) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x8x3x3xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout_dil) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<1x32x16x16xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<1x8x20x20xf32, #hal.descriptor_type<storage_buffer>> -> tensor<1x8x20x20xf32>
  %w = iree_codegen.load_from_buffer %1 : memref<32x8x3x3xf32, #hal.descriptor_type<storage_buffer>> -> tensor<32x8x3x3xf32>
  %e = tensor.empty() : tensor<1x32x16x16xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5 * 2, d3 + d6 * 2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x8x20x20xf32>, tensor<32x8x3x3xf32>) outs(%z : tensor<1x32x16x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %p = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x32x16x16xf32>
  iree_codegen.store_to_buffer %y, %2 : tensor<1x32x16x16xf32> into memref<1x32x16x16xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// NCHW 3x3 f16 on gfx942, unpadded (an 18x18 image): rows of 36 bytes start 4-byte aligned,
// but a run of output columns starts at `ow + kw`, 2 bytes off for odd kw: the DMA's 4-byte
// lanes (`amdgpu.gather_to_lds` of 2 f16) must start aligned, so ldsopt-dtl-layout copies the
// filters and leaves the image to the registers. (At dilation 2 the starts are even: copied.)
// GFX-LABEL: func.func @nchw_f16_gfx942
// GFX-SAME:    ldsopt.dtl = {A = "direct {{.+}}", B = "left alone: its aligned contiguous run of 1 elements {{.+}} is not whole 4-byte lanes {{.+}}"}
// GFX:         amdgpu.gather_to_lds {{.*}} memref<32x32x3x3xf16, #amdgpu.address_space<fat_raw_buffer>>
// GFX-NOT:     amdgpu.gather_to_lds {{.*}} memref<1x32x18x18xf16
#layout_und = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @nchw_f16_gfx942() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f16
  %0 = hal.interface.binding.subspan layout(#layout_und) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1x32x18x18xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout_und) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<32x32x3x3xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout_und) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<1x32x16x16xf16, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<1x32x18x18xf16, #hal.descriptor_type<storage_buffer>> -> tensor<1x32x18x18xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<32x32x3x3xf16, #hal.descriptor_type<storage_buffer>> -> tensor<32x32x3x3xf16>
  %e = tensor.empty() : tensor<1x32x16x16xf16>
  %z = linalg.fill ins(%cst : f16) outs(%e : tensor<1x32x16x16xf16>) -> tensor<1x32x16x16xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x32x18x18xf16>, tensor<32x32x3x3xf16>) outs(%z : tensor<1x32x16x16xf16>) {
  ^bb0(%in: f16, %in_0: f16, %out: f16):
    %p = arith.mulf %in, %in_0 : f16
    %s = arith.addf %out, %p : f16
    linalg.yield %s : f16
  } -> tensor<1x32x16x16xf16>
  iree_codegen.store_to_buffer %y, %2 : tensor<1x32x16x16xf16> into memref<1x32x16x16xf16, #hal.descriptor_type<storage_buffer>>
  return
}
