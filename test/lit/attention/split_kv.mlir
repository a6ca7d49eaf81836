// ldsopt-attention on the two dispatches IREE 3.13 forms from ldsopt-split-attention's rewrite of
// decode (test/e2e/programs/attention/decode1_f16_1x2x1x4096x128.mlir: 2 heads, one query row,
// 4096 keys in 16 chunks of 256) at executable-configurations for sm_89 (lowering configs dropped).
// RUN: lds-opt %s --split-input-file --target=cuda --pass-pipeline='builtin.module(ldsopt-attention, canonicalize, cse)' | filecheck %s

// The partials: a workgroup per (chunk, head) (the chunk loop, which Q does not read, is a grid
// dim), the FMA kernel for one row (plan.direct): 8 groups of 16 lanes, each lane 8 of the head dim
// (16-byte reads), take the chunk's key tiles in turn, reading K and V into registers with no LDS
// tile (the first tile's before the loop, the next one's in each round, carried by the loop), and
// combine in LDS at the end; the accumulator stored as it is, not normalized, and the running max
// and sum by the row's first lane.
// CHECK-LABEL: func.func @partials
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// CHECK:         %[[Q:.+]] = hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : memref<2x128xf16
// CHECK:         %[[K:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : memref<2x16x256x128xf16
// CHECK:         %[[ACC:.+]] = hal.interface.binding.subspan {{.+}} binding(3) {{.+}} : memref<16x2x128xf32
// CHECK:         %[[MAX:.+]] = hal.interface.binding.subspan {{.+}} binding(4) {{.+}} : memref<16x2xf32
// CHECK:         %[[SUM:.+]] = hal.interface.binding.subspan {{.+}} binding(5) {{.+}} : memref<16x2xf32
// CHECK:         vector.load %[[Q]]{{.+}} alignment = 16 {{.+}}, vector<8xf16>
// CHECK:         vector.load %[[K]]{{.+}} alignment = 16 {{.+}}, vector<8xf16>
// CHECK-NOT:     gpu.barrier
// CHECK:         scf.for {{.+}} -> (f32, f32, vector<8xf32>, vector<8xf16>, vector<8xf16>,
// CHECK-NOT:       gpu.barrier
// CHECK:           vector.load %[[K]]
// CHECK-NOT:       gpu.barrier
// CHECK:           llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK-NOT:       gpu.barrier
// CHECK:           scf.yield
// CHECK:         memref.alloc() alignment = 16 : memref<8x1x130xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.barrier
// CHECK:         vector.transfer_write %{{.+}}, %[[ACC]][%[[CHUNK:.+]], %[[HEAD:.+]], %{{.+}}] {{.+}} : vector<8xf32>
// CHECK:         scf.if
// CHECK-NEXT:      memref.store %{{.+}}, %[[MAX]][%[[CHUNK]], %[[HEAD]]]
// CHECK-NEXT:      memref.store %{{.+}}, %[[SUM]][%[[CHUNK]], %[[HEAD]]]

func.func @partials() {
  %cst = arith.constant 8.837890e-02 : f16
  %cst_0 = arith.constant -3.40282347E+38 : f32
  %cst_1 = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %c16384 = arith.constant 16384 : index
  %c16512 = arith.constant 16512 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x128xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x16x256x128xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<2x16x256x128xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<16x2x128xf32, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(4) alignment(64) offset(%c16384) flags(Indirect) : memref<16x2xf32, strided<[2, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %5 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(5) alignment(64) offset(%c16512) flags(Indirect) : memref<16x2xf32, strided<[2, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %6 = iree_codegen.load_from_buffer %0 : memref<2x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x128xf16>
  %7 = iree_codegen.load_from_buffer %1 : memref<2x16x256x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x16x256x128xf16>
  %8 = iree_codegen.load_from_buffer %2 : memref<2x16x256x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<2x16x256x128xf16>
  %9 = tensor.empty() : tensor<16x2xf32>
  %10 = tensor.empty() : tensor<16x2x128xf32>
  %11 = linalg.fill ins(%cst_1 : f32) outs(%10 : tensor<16x2x128xf32>) -> tensor<16x2x128xf32>
  %12 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<16x2xf32>) -> tensor<16x2xf32>
  %13 = linalg.fill ins(%cst_1 : f32) outs(%9 : tensor<16x2xf32>) -> tensor<16x2xf32>
  %14:3 = iree_linalg_ext.online_attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d0, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d0)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d0)>]> ins(%6, %7, %8, %cst : tensor<2x128xf16>, tensor<2x16x256x128xf16>, tensor<2x16x256x128xf16>, f16) outs(%11, %12, %13 : tensor<16x2x128xf32>, tensor<16x2xf32>, tensor<16x2xf32>) {
  ^bb0(%arg0: f32):
    iree_linalg_ext.yield %arg0 : f32
  } -> tensor<16x2x128xf32>, tensor<16x2xf32>, tensor<16x2xf32>
  iree_codegen.store_to_buffer %14#0, %3 : tensor<16x2x128xf32> into memref<16x2x128xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %14#1, %4 : tensor<16x2xf32> into memref<16x2xf32, strided<[2, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %14#2, %5 : tensor<16x2xf32> into memref<16x2xf32, strided<[2, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// The combine: a thread per 4 output elements reads its 16 chunks' accumulators, maxima and sums
// (all before the math: unrolled, so that the reads are in flight together), then merges them in
// order with the reduction's body (max, sum and output), then the normalization, stored once.
// CHECK-LABEL: func.func @combine
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-attention"]
// CHECK-NOT:     scf.for
// CHECK-COUNT-16: vector.transfer_read %{{.+}} : memref<16x2x128xf32, {{.+}}>, vector<4xf32>
// CHECK-NOT:     scf.for
// CHECK-COUNT-16: math.exp2 {{.+}} : vector<4xf32>
// CHECK:         arith.divf
// CHECK:         arith.truncf %{{.+}} : vector<4xf32> to vector<4xf16>
// CHECK:         vector.transfer_write %{{.+}} : vector<4xf16>, memref<2x128xf16

func.func @combine() {
  %cst = arith.constant -3.40282347E+38 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant 1.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %c16384 = arith.constant 16384 : index
  %c16512 = arith.constant 16512 : index
  %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x2x128xf32, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c16384) flags("ReadOnly|Indirect") : memref<16x2xf32, strided<[2, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c16512) flags("ReadOnly|Indirect") : memref<16x2xf32, strided<[2, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<2x128xf16, #hal.descriptor_type<storage_buffer>>
  %4 = iree_codegen.load_from_buffer %0 : memref<16x2x128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<16x2x128xf32>
  %5 = iree_codegen.load_from_buffer %1 : memref<16x2xf32, strided<[2, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<16x2xf32>
  %6 = iree_codegen.load_from_buffer %2 : memref<16x2xf32, strided<[2, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<16x2xf32>
  %7 = tensor.empty() : tensor<2x128xf16>
  %8 = tensor.empty() : tensor<2x128xf32>
  %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<2x128xf32>) -> tensor<2x128xf32>
  %10 = linalg.fill ins(%cst_0 : f32) outs(%8 : tensor<2x128xf32>) -> tensor<2x128xf32>
  %11:3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%4, %5, %6 : tensor<16x2x128xf32>, tensor<16x2xf32>, tensor<16x2xf32>) outs(%9, %10, %10 : tensor<2x128xf32>, tensor<2x128xf32>, tensor<2x128xf32>) {
  ^bb0(%in: f32, %in_2: f32, %in_3: f32, %out: f32, %out_4: f32, %out_5: f32):
    %13 = arith.maximumf %out, %in_2 : f32
    %14 = arith.subf %out, %13 : f32
    %15 = math.exp2 %14 : f32
    %16 = arith.subf %in_2, %13 : f32
    %17 = math.exp2 %16 : f32
    %18 = arith.mulf %out_4, %15 : f32
    %19 = arith.mulf %in_3, %17 : f32
    %20 = arith.addf %18, %19 : f32
    %21 = arith.mulf %out_5, %15 : f32
    %22 = arith.mulf %in, %17 : f32
    %23 = arith.addf %21, %22 : f32
    linalg.yield %13, %20, %23 : f32, f32, f32
  } -> (tensor<2x128xf32>, tensor<2x128xf32>, tensor<2x128xf32>)
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%11#1, %11#2 : tensor<2x128xf32>, tensor<2x128xf32>) outs(%7 : tensor<2x128xf16>) {
  ^bb0(%in: f32, %in_2: f32, %out: f16):
    %13 = arith.divf %cst_1, %in : f32
    %14 = arith.mulf %13, %in_2 : f32
    %15 = arith.truncf %14 : f32 to f16
    linalg.yield %15 : f16
  } -> tensor<2x128xf16>
  iree_codegen.store_to_buffer %12, %3 : tensor<2x128xf16> into memref<2x128xf16, #hal.descriptor_type<storage_buffer>>
  return
}
