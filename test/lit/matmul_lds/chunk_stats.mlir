// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-matmul-lds)' \
// RUN:   | filecheck %s --check-prefix=WGMMA

// A product's residual epilogue h = f16(x @ W + b + r) and statistics per chunk of 64 columns of
// h (sum(h - h0), sum((h - h0)^2), h0 the chunk's first element) in one dispatch: the kernel
// stages its output tile in LDS (even where the copies would not be wider than its pieces),
// and after the stage's barrier each thread sums a (row, chunk) pair of the tile from it,
// vector by vector, and stores the pair's sums; then the tile is copied out.
// CHECK-LABEL: func.func @residual_chunks
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[T2:.+]] = hal.interface.binding.subspan {{.*}} binding(6)
// CHECK:         %[[STAGE:.+]] = memref.alloc() {{.*}}ldsopt.output_stage = {{.*}} : memref<{{[0-9]+}}x{{[0-9]+}}xf16, #gpu.address_space<workgroup>>
// CHECK:         gpu.barrier
// CHECK:         %[[HEAD:.+]] = vector.transfer_read %[[STAGE]]{{.*}} : memref<{{.*}}xf16, #gpu.address_space<workgroup>>, vector<1xf16>
// CHECK:         %[[SUMS:.+]]:2 = scf.for {{.*}} -> (vector<[[V:[0-9]+]]xf32>, vector<[[V]]xf32>)
// CHECK:           vector.transfer_read %[[STAGE]]{{.*}} : memref<{{.*}}xf16, #gpu.address_space<workgroup>>, vector<[[V]]xf16>
// CHECK:           arith.subf %{{.+}}, %{{.+}} : vector<[[V]]xf32>
// CHECK:         vector.extract %[[SUMS]]#1[0]
// CHECK:         memref.store %{{.+}}, %[[T2]][%{{.+}}, %{{.+}}] : memref<64x2xf32, {{.*}}>
// CHECK:         vector.transfer_read %[[STAGE]]
// CHECK-NOT:     linalg.generic
// WGMMA-LABEL: func.func @residual_chunks
// WGMMA-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// WGMMA-NOT:     nvvm.cluster_dim
// WGMMA:         nvvm.wgmma.mma_async
// WGMMA:         scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>)
// WGMMA:           vector.load %{{.+}} : memref<{{.*}}xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// WGMMA:         memref.store %{{.+}} : memref<64x2xf32, {{.*}}>
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @residual_chunks() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x96xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x128xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  %5 = hal.interface.binding.subspan layout(#layout) binding(5) alignment(64) offset(%c0) flags(Indirect) : memref<64x2xf32, #hal.descriptor_type<storage_buffer>>
  %6 = hal.interface.binding.subspan layout(#layout) binding(6) alignment(64) offset(%c0) flags(Indirect) : memref<64x2xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<64x96xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x96xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<96x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x128xf16>
  %b = iree_codegen.load_from_buffer %2 : memref<128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<128xf32>
  %r = iree_codegen.load_from_buffer %3 : memref<64x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x128xf16>
  %ea = tensor.empty() : tensor<64x128xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<64x128xf32>) -> tensor<64x128xf32>
  %eo = tensor.empty() : tensor<64x128xf16>
  %ec = tensor.empty() : tensor<64x2xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<64x2xf32>) -> tensor<64x2xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x96xf16>, tensor<96x128xf16>) outs(%fa : tensor<64x128xf32>) -> tensor<64x128xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b, %r : tensor<64x128xf32>, tensor<128xf32>, tensor<64x128xf16>) outs(%eo : tensor<64x128xf16>) {
  ^bb0(%acc: f32, %bb: f32, %rr: f16, %o: f16):
    %s = arith.addf %acc, %bb : f32
    %re = arith.extf %rr : f16 to f32
    %t = arith.addf %s, %re : f32
    %y = arith.truncf %t : f32 to f16
    linalg.yield %y : f16
  } -> tensor<64x128xf16>
  %t:2 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, (n floordiv 64) * 64)>, affine_map<(m, n) -> (m, n floordiv 64)>, affine_map<(m, n) -> (m, n floordiv 64)>], iterator_types = ["parallel", "reduction"]}
      ins(%h, %h : tensor<64x128xf16>, tensor<64x128xf16>) outs(%fc, %fc : tensor<64x2xf32>, tensor<64x2xf32>) {
  ^bb0(%v: f16, %v0: f16, %s1: f32, %s2: f32):
    %a = arith.extf %v : f16 to f32
    %a0 = arith.extf %v0 : f16 to f32
    %d = arith.subf %a, %a0 : f32
    %n1 = arith.addf %s1, %d : f32
    %sq = arith.mulf %d, %d : f32
    %n2 = arith.addf %s2, %sq : f32
    linalg.yield %n1, %n2 : f32, f32
  } -> (tensor<64x2xf32>, tensor<64x2xf32>)
  iree_codegen.store_to_buffer %h, %4 : tensor<64x128xf16> into memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %t#0, %5 : tensor<64x2xf32> into memref<64x2xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %t#1, %6 : tensor<64x2xf32> into memref<64x2xf32, #hal.descriptor_type<storage_buffer>>
  return
}
