// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda \
// RUN:   --pass-pipeline='builtin.module(ldsopt-dtl-layout, ldsopt-matmul-lds)' | filecheck %s --check-prefix=DTL
// RUN: lds-opt %s --split-input-file --target=gfx942 \
// RUN:   --pass-pipeline='builtin.module(ldsopt-dtl-layout, ldsopt-matmul-lds)' | filecheck %s --check-prefix=GFX
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{tiles=64x64x4x4})' -o %t

// A 3x3 NHWC convolution whose zero padding (1 on each side of the 7x9 image) IREE fused into
// its dispatch (--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops) as a
// tensor.pad of the loaded image: the image is read in its own binding at (oh + kh - 1,
// ow + kw - 1), and an element whose row or column is outside [0, 7) x [0, 9) (unsigned: -1
// is outside) is a border zero.
// Register staging: each 4-channel vector read under `scf.if` of both row and column inside.
// CHECK-LABEL: func.func @padded
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         %[[H:.+]] = arith.addi %{{.+}}, %c-1 : index
// CHECK:         %[[W:.+]] = arith.addi %{{.+}}, %c-1 : index
// CHECK:         %[[HIN:.+]] = arith.cmpi ult, %[[H]], %c7 : index
// CHECK:         %[[WIN:.+]] = arith.cmpi ult, %[[W]], %c9 : index
// CHECK:         %[[IN:.+]] = arith.andi %{{.+}}, %[[HIN]]
// CHECK:         %[[IN2:.+]] = arith.andi %[[IN]], %[[WIN]]
// CHECK:         scf.if %[[IN2]] -> (vector<4xf16>) {
// CHECK:           vector.transfer_read %[[X]][%{{.+}}, %[[H]], %[[W]], %{{.+}}]{{.*}} : memref<2x7x9x32xf16, {{.*}}>, vector<4xf16>
// CHECK:         } else {
// CHECK-NEXT:      vector.broadcast %{{.+}} : f16 to vector<4xf16>
// cp.async (CUDA, ldsopt-dtl-layout): each 16-byte chunk (8 channels, one image position)
// copied from its row and column clamped into the image, with no source element (srcElements
// 0: zero-filled) outside it.
// DTL-LABEL: func.func @padded
// DTL-SAME:    ldsopt.dtl = {A = "direct rotation<2,4,8>", B = "direct rotation<2,4,8>"}
// DTL:         %[[H:.+]] = arith.addi %{{.+}}, %c-1 : index
// DTL:         %[[W:.+]] = arith.addi %{{.+}}, %c-1 : index
// DTL:         %[[HC:.+]] = arith.minui %[[H]], %c6 : index
// DTL:         %[[WC:.+]] = arith.minui %[[W]], %c8 : index
// DTL:         %[[HIN:.+]] = arith.cmpi ult, %[[H]], %c7 : index
// DTL:         %[[WIN:.+]] = arith.cmpi ult, %[[W]], %c9 : index
// DTL:         %[[IN:.+]] = arith.andi %[[HIN]], %[[WIN]]
// DTL:         %[[N:.+]] = arith.select %[[IN]], %{{.+}}, %{{.+}} : index
// DTL:         nvgpu.device_async_copy %{{.+}}[%{{.+}}, %[[HC]], %[[WC]], %{{.+}}], %{{.+}}, 8, %[[N]] bypassL1 : memref<2x7x9x32xf16, #gpu.address_space<global>>
// gfx942's DMA cannot zero-fill: the image keeps the register staging, the filters go direct.
// GFX-LABEL: func.func @padded
// GFX-SAME:    ldsopt.dtl = {A = "left alone: an image padded in the dispatch: a DMA cannot zero-fill its border", B = "direct {{.+}}"}
// GFX-SAME:    ldsopt.lowered_by = ["ldsopt-dtl-layout", "ldsopt-matmul-lds"]
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @padded() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %zero = arith.constant 0.0 : f16
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x7x9x32xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<24x3x3x32xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2x7x9x24xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2x7x9x32xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x7x9x32xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<24x3x3x32xf16, #hal.descriptor_type<storage_buffer>> -> tensor<24x3x3x32xf16>
  %e = tensor.empty() : tensor<2x7x9x24xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x7x9x24xf32>) -> tensor<2x7x9x24xf32>
  %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f16
  } : tensor<2x7x9x32xf16> to tensor<2x9x11x32xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xp, %w : tensor<2x9x11x32xf16>, tensor<24x3x3x32xf16>) outs(%z : tensor<2x7x9x24xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %a = arith.extf %in : f16 to f32
    %b = arith.extf %in_0 : f16 to f32
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x7x9x24xf32>
  iree_codegen.store_to_buffer %y, %2 : tensor<2x7x9x24xf32> into memref<2x7x9x24xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A padding of ones is not what the reads give outside the image: left to IREE with the
// reason (the driver then keeps IREE's copy into a padded buffer and the convolution is taken).
// CHECK-LABEL: func.func @pad_value_one
// CHECK-NOT:     ldsopt.lowered_by
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @pad_value_one() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %zero = arith.constant 1.0 : f16
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x7x9x32xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<24x3x3x32xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<2x7x9x24xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2x7x9x32xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x7x9x32xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<24x3x3x32xf16, #hal.descriptor_type<storage_buffer>> -> tensor<24x3x3x32xf16>
  %e = tensor.empty() : tensor<2x7x9x24xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<2x7x9x24xf32>) -> tensor<2x7x9x24xf32>
  %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f16
  } : tensor<2x7x9x32xf16> to tensor<2x9x11x32xf16>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: a tensor.pad fused into the dispatch with 1.000000e+00 : f16; implicit GEMM reads the border as zeros (+0)}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xp, %w : tensor<2x9x11x32xf16>, tensor<24x3x3x32xf16>) outs(%z : tensor<2x7x9x24xf32>) {
  ^bb0(%in: f16, %in_0: f16, %out: f32):
    %a = arith.extf %in : f16 to f32
    %b = arith.extf %in_0 : f16 to f32
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x7x9x24xf32>
  iree_codegen.store_to_buffer %y, %2 : tensor<2x7x9x24xf32> into memref<2x7x9x24xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// NCHW, its rows and columns padded: the image is B [K, N] read along the output's columns
// (4 a vector on CUDA), which run along the padded innermost dim and may straddle its border. A
// vector all inside the row (its first column below 16 - 4 + 1) is read whole, else element by
// element, each outside the row a zero; the padded rows are checked for the whole vector.
// ldsopt-dtl-layout leaves the image: its lanes would start at `ow + kw - 1`, off the 16 bytes
// a cp.async must be aligned to (and cp.async cannot zero-fill a lane's first elements).
// On SPIR-V the image is read an element at a time: a vector at `ow + kw - 1` starts off a
// multiple of its width, which IREE's SPIR-V lowering would read at the index divided by it.
// CHECK-LABEL: func.func @padded_nchw
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK-NOT:     vector.transfer_read {{.*}} : memref<1x4x6x16xf32, {{.*}}>, vector<{{[2-4]}}xf32>
// CHECK:         vector.transfer_read {{.*}} : memref<1x4x6x16xf32, {{.*}}>, vector<1xf32>
// CHECK-NOT:     vector.transfer_read {{.*}} : memref<1x4x6x16xf32, {{.*}}>, vector<{{[2-4]}}xf32>
// DTL-LABEL: func.func @padded_nchw
// DTL-SAME:    ldsopt.dtl = {A = "direct none", B = "left alone: its aligned contiguous run of 1 elements {{.+}} is not whole 16-byte lanes {{.+}}"}
// DTL:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// DTL:         %[[H:.+]] = arith.addi %{{.+}}, %c-1 : index
// DTL:         %[[W:.+]] = arith.addi %{{.+}}, %c-1 : index
// DTL:         arith.cmpi ult, %[[H]], %c6 : index
// DTL-NOT:     arith.cmpi ult, %[[W]], %c16
// DTL:         scf.if %{{.+}} -> (vector<4xf32>) {
// DTL-NEXT:      %[[WHOLE:.+]] = arith.cmpi ult, %[[W]], %c13 : index
// DTL-NEXT:      scf.if %[[WHOLE]] -> (vector<4xf32>) {
// DTL:             vector.transfer_read %[[X]][%{{.+}}, %{{.+}}, %[[H]], %[[W]]]{{.*}} : memref<1x4x6x16xf32, {{.*}}>, vector<4xf32>
// DTL:           } else {
// DTL-NEXT:        arith.cmpi ult, %[[W]], %c16 : index
// DTL-COUNT-3:     arith.cmpi ult, %{{.+}}, %c16 : index
// DTL:             vector.from_elements %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : vector<4xf32>
#layout3 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @padded_nchw() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout3) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1x4x6x16xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout3) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<8x4x3x3xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout3) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<1x8x6x16xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<1x4x6x16xf32, #hal.descriptor_type<storage_buffer>> -> tensor<1x4x6x16xf32>
  %w = iree_codegen.load_from_buffer %1 : memref<8x4x3x3xf32, #hal.descriptor_type<storage_buffer>> -> tensor<8x4x3x3xf32>
  %e = tensor.empty() : tensor<1x8x6x16xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x8x6x16xf32>) -> tensor<1x8x6x16xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %cst : f32
  } : tensor<1x4x6x16xf32> to tensor<1x4x8x18xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xp, %w : tensor<1x4x8x18xf32>, tensor<8x4x3x3xf32>) outs(%z : tensor<1x8x6x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %p = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x8x6x16xf32>
  iree_codegen.store_to_buffer %y, %2 : tensor<1x8x6x16xf32> into memref<1x8x6x16xf32, #hal.descriptor_type<storage_buffer>>
  return
}
