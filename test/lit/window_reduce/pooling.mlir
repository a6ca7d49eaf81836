// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-window-reduce)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-window-reduce)' -o %t

// The max pool of a ResNet stem as IREE imports ONNX's MaxPool (NCHW, 3x3 stride 2, the image
// padded with -inf into its buffer before): the window's 3x3 input is an unread tensor.empty
// that only gives the reduced loops their extents. One thread an output element (the window's
// columns `ow * 2 + kw` are not contiguous): the fill -inf, then the nine window points
// unrolled, each a read at (n, c, oh * 2 + kh, ow * 2 + kw) and a maximumf, then one store.
// CHECK-LABEL: func.func @max_nchw
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-window-reduce"]
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.*}} binding(1)
// CHECK:         scf.for
// CHECK:           %[[NEG:.+]] = vector.broadcast %{{.+}} : f32 to vector<1xf32>
// CHECK:           %[[OH2:.+]] = arith.muli %{{.+}}, %c2
// CHECK:           %[[H:.+]] = arith.addi %[[OH2]], %c0
// CHECK:           %[[V0:.+]] = vector.transfer_read %[[X]][%{{.+}}, %{{.+}}, %[[H]], %{{.+}}]{{.*}} : memref<2x13x17x17xf32, {{.*}}>, vector<1xf32>
// CHECK:           %[[M0:.+]] = arith.maximumf %[[NEG]], %[[V0]] : vector<1xf32>
// CHECK-COUNT-8:   arith.maximumf
// CHECK-NOT:       arith.maximumf
// CHECK:           vector.transfer_write %{{.+}}, %[[OUT]]{{.*}} : vector<1xf32>, memref<2x13x8x8xf32
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @max_nchw() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0xFF800000 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x13x17x17xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x13x8x8xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2x13x17x17xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x13x17x17xf32>
  %e = tensor.empty() : tensor<2x13x8x8xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x13x8x8xf32>) -> tensor<2x13x8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %win : tensor<2x13x17x17xf32>, tensor<3x3xf32>) outs(%f : tensor<2x13x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<2x13x8x8xf32>
  iree_codegen.store_to_buffer %y, %1 : tensor<2x13x8x8xf32> into memref<2x13x8x8xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// An NHWC average pool: the window's reads are vectors along the channels (4 f32 on SPIR-V,
// 24 channels), 25 points in a loop nest (more than are unrolled), the divide fused after.
// CHECK-LABEL: func.func @avg_nhwc
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-window-reduce"]
// CHECK:         scf.for
// CHECK:           scf.for %{{.+}} = %c0 to %c5
// CHECK:             scf.for %{{.+}} = %c0 to %c5
// CHECK:               vector.transfer_read {{.*}} : memref<2x13x12x24xf32, {{.*}}>, vector<4xf32>
// CHECK:               arith.addf {{.*}} : vector<4xf32>
// CHECK:           arith.divf {{.*}} : vector<4xf32>
// CHECK:           vector.transfer_write {{.*}} : vector<4xf32>, memref<2x5x4x24xf32
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @avg_nhwc() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x13x12x24xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x5x4x24xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2x13x12x24xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x13x12x24xf32>
  %e = tensor.empty() : tensor<2x5x4x24xf32>
  %win = tensor.empty() : tensor<5x5xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x5x4x24xf32>) -> tensor<2x5x4x24xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %win : tensor<2x13x12x24xf32>, tensor<5x5xf32>) outs(%f : tensor<2x5x4x24xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<2x5x4x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<2x5x4x24xf32>) outs(%e : tensor<2x5x4x24xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.constant 25.0 : f32
    %q = arith.divf %v, %d : f32
    linalg.yield %q : f32
  } -> tensor<2x5x4x24xf32>
  iree_codegen.store_to_buffer %r, %1 : tensor<2x5x4x24xf32> into memref<2x5x4x24xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A body that reads the accumulator twice is no combiner of window values; left to IREE.
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @acc_read_twice() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<9x9xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<7x7xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<9x9xf32, #hal.descriptor_type<storage_buffer>> -> tensor<9x9xf32>
  %e = tensor.empty() : tensor<7x7xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<7x7xf32>) -> tensor<7x7xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  // expected-remark @+1 {{ldsopt-window-reduce: left to IREE: the body is not arith/math ops combining the accumulator once}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 + d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %win : tensor<9x9xf32>, tensor<3x3xf32>) outs(%f : tensor<7x7xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    %t = arith.mulf %s, %out : f32
    linalg.yield %t : f32
  } -> tensor<7x7xf32>
  iree_codegen.store_to_buffer %y, %1 : tensor<7x7xf32> into memref<7x7xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A window read through a division is not a sum of loops; left to IREE.
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @division() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<9x9xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<7x7xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<9x9xf32, #hal.descriptor_type<storage_buffer>> -> tensor<9x9xf32>
  %e = tensor.empty() : tensor<7x7xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<7x7xf32>) -> tensor<7x7xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  // expected-remark @+1 {{ldsopt-window-reduce: left to IREE: an input is read through (d0, d1, d2, d3) -> (d0 + d2 floordiv 2, d1 + d3); this pass takes sums of loops times strides}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0 + d2 floordiv 2, d1 + d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %win : tensor<9x9xf32>, tensor<3x3xf32>) outs(%f : tensor<7x7xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<7x7xf32>
  iree_codegen.store_to_buffer %y, %1 : tensor<7x7xf32> into memref<7x7xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A window longer than max-window (33 x 33 points against 1024) is left to the passes that
// spread a reduction over threads.
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @long_window() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<40x40xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<8x8xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<40x40xf32, #hal.descriptor_type<storage_buffer>> -> tensor<40x40xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %win = tensor.empty() : tensor<33x33xf32>
  // expected-remark @+1 {{ldsopt-window-reduce: left to IREE: a window of 1089 points, more than max-window=1024: a thread per output would go through it alone}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 + d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %win : tensor<40x40xf32>, tensor<33x33xf32>) outs(%f : tensor<8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  iree_codegen.store_to_buffer %y, %1 : tensor<8x8xf32> into memref<8x8xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A reduction to a scalar (every loop reduced, a 0-d output: a 2x2 tensor plus a row vector
// broadcast along it, as the fuzzer wrote it) has no output for threads to share: left alone
// (it used to fail with an IndexError on the output's innermost loop).
#layout_scalar = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @to_scalar() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout_scalar) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x2xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout_scalar) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout_scalar) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<f32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2x2xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x2xf32>
  %v = iree_codegen.load_from_buffer %1 : memref<2xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2xf32>
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<f32>) -> tensor<f32>
  // expected-remark @+1 {{ldsopt-window-reduce: left to IREE: a reduction to a scalar: no output for threads to share (a row reduction's: ldsopt-vector-distribute's, or IREE's)}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x, %v : tensor<2x2xf32>, tensor<2xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %out : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  iree_codegen.store_to_buffer %y, %2 : tensor<f32> into memref<f32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// The same max pool with its -inf padding fused into the dispatch (IREE's
// --iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops): the image is read in
// its own 15x15 binding at (oh * 2 + kh - 1, ow * 2 + kw - 1), a window point outside it
// (unsigned compare: -1 is outside) is the padding value, -inf.
// CHECK-LABEL: func.func @max_nchw_padded
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-window-reduce"]
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         scf.for
// CHECK:           %[[H:.+]] = arith.addi %{{.+}}, %c-1 : index
// CHECK:           %[[W:.+]] = arith.addi %{{.+}}, %c-1 : index
// CHECK:           %[[HIN:.+]] = arith.cmpi ult, %[[H]], %c15 : index
// CHECK:           %[[WIN:.+]] = arith.cmpi ult, %[[W]], %c15 : index
// CHECK:           %[[IN:.+]] = arith.andi %[[HIN]], %[[WIN]] : i1
// CHECK:           scf.if %[[IN]] -> (vector<1xf32>) {
// CHECK:             vector.transfer_read %[[X]][%{{.+}}, %{{.+}}, %[[H]], %[[W]]]{{.*}} : memref<2x13x15x15xf32, {{.*}}>, vector<1xf32>
// CHECK:           } else {
// CHECK:             %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:        vector.broadcast %[[NEGINF]] : f32 to vector<1xf32>
// CHECK-COUNT-9:   arith.maximumf
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @max_nchw_padded() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0xFF800000 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x13x15x15xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x13x8x8xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2x13x15x15xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x13x15x15xf32>
  %e = tensor.empty() : tensor<2x13x8x8xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x13x8x8xf32>) -> tensor<2x13x8x8xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %cst : f32
  } : tensor<2x13x15x15xf32> to tensor<2x13x17x17xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%xp, %win : tensor<2x13x17x17xf32>, tensor<3x3xf32>) outs(%f : tensor<2x13x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<2x13x8x8xf32>
  iree_codegen.store_to_buffer %y, %1 : tensor<2x13x8x8xf32> into memref<2x13x8x8xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// A padding whose value is computed in its region is left to IREE, with the reason.
// CHECK-LABEL: func.func @pad_computed
// CHECK-NOT:     ldsopt.lowered_by
#layout2 = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @pad_computed() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0xFF800000 : f32
  %0 = hal.interface.binding.subspan layout(#layout2) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x13x15x15xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout2) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x13x8x8xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<2x13x15x15xf32, #hal.descriptor_type<storage_buffer>> -> tensor<2x13x15x15xf32>
  %e = tensor.empty() : tensor<2x13x8x8xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x13x8x8xf32>) -> tensor<2x13x8x8xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %i = arith.index_cast %i2 : index to i32
    %v = arith.sitofp %i : i32 to f32
    tensor.yield %v : f32
  } : tensor<2x13x15x15xf32> to tensor<2x13x17x17xf32>
  // expected-remark @+1 {{ldsopt-window-reduce: left to IREE: a tensor.pad fused into the dispatch whose value is computed; takes a constant}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%xp, %win : tensor<2x13x17x17xf32>, tensor<3x3xf32>) outs(%f : tensor<2x13x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<2x13x8x8xf32>
  iree_codegen.store_to_buffer %y, %1 : tensor<2x13x8x8xf32> into memref<2x13x8x8xf32, #hal.descriptor_type<storage_buffer>>
  return
}
