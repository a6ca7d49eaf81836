// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-matmul-lds)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=missed \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds)' -o %t
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a --pass-pipeline='builtin.module(ldsopt-matmul-lds)' \
// RUN:   | filecheck %s --check-prefix=WGMMA
// RUN: lds-opt %s --split-input-file --target=cuda-sm90a \
// RUN:   --pass-pipeline='builtin.module(ldsopt-matmul-lds{row-sums-cluster=2})' | filecheck %s --check-prefix=SHARE

// A LayerNorm folded into the product after it: beside x @ W the dispatch sums x's rows (x,
// x - x[m, 0] and its square: the mean and a shifted variance), and the consumer normalizes
// the product with them: r * (acc - mean * c) + d. The kernel sums the rows from the A tiles
// in LDS, carried through the K loop as vectors; after it, each row's sums go to an LDS array
// [3, BM] (a butterfly over the row's lanes, then its first lane's store) and a barrier
// publishes them to the consumer, which reads them at m % BM.
// CHECK-LABEL: func.func @layernorm_rows
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         %[[LDS_A:.+]] = memref.alloc() alignment = 16 {{.*}}operand = "A"{{.*}} : memref<2x64x32xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[SUMS:.+]] = memref.alloc() alignment = 16 : memref<3x64xf32, #gpu.address_space<workgroup>>
// The row's first element, read once before the loop.
// CHECK:         vector.transfer_read %[[X]][%{{.+}}, %c0]{{.*}} : memref<64x96xf16, {{.*}}>, vector<1xf16>
// The body adds each element's terms to the sums the loop carries (its iter_args), nothing else.
// CHECK:         %[[LOOP:.+]]:{{[0-9]+}} = scf.for {{.*}}, %[[T0:[a-z0-9]+]] = %{{.+}}, %[[T1:[a-z0-9]+]] = %{{.+}}, %[[T2:[a-z0-9]+]] = %{{.+}}) -> ({{.*}}vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK:           %[[XV:.+]] = vector.transfer_read %[[LDS_A]]{{.*}} : memref<2x64x32xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK:           %[[XF:.+]] = arith.extf %[[XV]] : vector<4xf16> to vector<4xf32>
// CHECK:           %[[D:.+]] = arith.subf %[[XF]], %{{.+}} : vector<4xf32>
// CHECK:           arith.addf %[[T0]], %[[XF]] : vector<4xf32>
// CHECK:           arith.addf %[[T1]], %[[D]] : vector<4xf32>
// CHECK:           %[[SQ:.+]] = arith.mulf %[[D]], %[[D]] : vector<4xf32>
// CHECK:           arith.addf %[[T2]], %[[SQ]] : vector<4xf32>
// CHECK:         gpu.shuffle xor
// CHECK:         memref.store %{{.+}}, %[[SUMS]][%c0, %{{.+}}] : memref<3x64xf32, #gpu.address_space<workgroup>>
// CHECK:         memref.store %{{.+}}, %[[SUMS]][%c2, %{{.+}}] : memref<3x64xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.barrier
// CHECK:         memref.load %[[SUMS]][%c1, %{{.+}}] : memref<3x64xf32, #gpu.address_space<workgroup>>
// CHECK:         math.rsqrt %{{.+}} : vector<{{[0-9]+}}xf32>
// CHECK-NOT:     linalg.generic
// The wgmma kernel reads the swizzled A tile 8 f16 at a time, each step after its wgmmas,
// their wait and the next tile's copies (ROW_SUMS_LAST: the sums run under them); each
// workgroup sums every K step of its rows.
// WGMMA-LABEL: func.func @layernorm_rows
// WGMMA-NOT:     nvvm.cluster_dim
// WGMMA-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// WGMMA:         %[[SUMS:.+]] = memref.alloc() alignment = 16 : memref<3x64xf32, #gpu.address_space<workgroup>>
// WGMMA:         scf.for
// WGMMA:           nvvm.wgmma.mma_async
// WGMMA:           nvvm.wgmma.wait.group.sync.aligned 1
// WGMMA:           gpu.barrier
// WGMMA:           nvgpu.device_async_copy
// WGMMA:           vector.load %{{.+}} : memref<{{.*}}xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// WGMMA:           scf.yield
// WGMMA:         nvvm.wgmma.wait.group.sync.aligned 0
// WGMMA:         gpu.shuffle xor
// WGMMA-NOT:     nvvm.cluster
// WGMMA:         gpu.barrier
// WGMMA:         memref.load %[[SUMS]]
// Shared over a cluster (row-sums-cluster=2): the two N tiles of the row band are a cluster;
// the workgroup of rank r sums the K steps kt with kt % 2 == r; after the loop each stores its
// partial sums, a cluster barrier publishes them, each thread adds an entry of both
// workgroups' arrays (in rank order: the same bits in both) and, after a second cluster
// barrier (no workgroup reads the others' arrays any more), stores the total in its own.
// SHARE-LABEL: func.func @layernorm_rows
// SHARE-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"], nvvm.cluster_dim = array<i32: 2, 1, 1>
// SHARE:         %[[SUMS:.+]] = memref.alloc() alignment = 16 : memref<3x64xf32, #gpu.address_space<workgroup>>
// SHARE:         %[[X:.+]] = gpu.block_id x
// SHARE:         %[[RANK:.+]] = arith.remui %[[X]], %c2 : index
// SHARE:         scf.for %[[KT:.+]] = %c0 to %c2
// SHARE:           nvvm.wgmma.mma_async
// SHARE:           %[[STEP:.+]] = arith.remui %[[KT]], %c2 : index
// SHARE:           %[[MINE:.+]] = arith.cmpi eq, %[[STEP]], %[[RANK]] : index
// SHARE:           scf.if %[[MINE]] -> (vector<8xf32>, vector<8xf32>, vector<8xf32>)
// SHARE:             vector.load %{{.+}} : memref<{{.*}}xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// SHARE:         nvvm.wgmma.wait.group.sync.aligned 0
// SHARE:         gpu.shuffle xor
// SHARE:         memref.store %{{.+}}, %[[SUMS]][%c2, %{{.+}}]
// SHARE:         nvvm.cluster.arrive
// SHARE-NEXT:    nvvm.cluster.wait
// SHARE:         %[[R0:.+]] = llvm.inline_asm {{.*}}ld.shared::cluster.f32{{.*}} %[[AT:.+]], %c0_i32
// SHARE:         %[[R1:.+]] = llvm.inline_asm {{.*}}ld.shared::cluster.f32{{.*}} %[[AT]], %c1_i32
// SHARE:         %[[TOTAL:.+]] = arith.addf %[[R0]], %[[R1]] : f32
// SHARE:         nvvm.cluster.arrive
// SHARE-NEXT:    nvvm.cluster.wait
// SHARE:         memref.store %[[TOTAL]], %[[SUMS]]
// SHARE:         gpu.barrier
// SHARE:         memref.load %[[SUMS]]
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @layernorm_rows() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 96.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x96xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x128xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128xf32, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<64x96xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x96xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<96x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x128xf16>
  %c = iree_codegen.load_from_buffer %2 : memref<128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<128xf32>
  %d = iree_codegen.load_from_buffer %3 : memref<128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<128xf32>
  %er = tensor.empty() : tensor<64xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %ea = tensor.empty() : tensor<64x128xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<64x128xf32>) -> tensor<64x128xf32>
  %eo = tensor.empty() : tensor<64x128xf16>
  %s:3 = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, 0)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %x : tensor<64x96xf16>, tensor<64x96xf16>) outs(%fr, %fr, %fr : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  ^bb0(%v: f16, %v0: f16, %s0: f32, %s1: f32, %s2: f32):
    %a = arith.extf %v : f16 to f32
    %a0 = arith.extf %v0 : f16 to f32
    %dd = arith.subf %a, %a0 : f32
    %n0 = arith.addf %s0, %a : f32
    %n1 = arith.addf %s1, %dd : f32
    %sq = arith.mulf %dd, %dd : f32
    %n2 = arith.addf %s2, %sq : f32
    linalg.yield %n0, %n1, %n2 : f32, f32, f32
  } -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
  %mm = linalg.matmul ins(%x, %w : tensor<64x96xf16>, tensor<96x128xf16>) outs(%fa : tensor<64x128xf32>) -> tensor<64x128xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %s#0, %s#1, %s#2, %c, %d : tensor<64x128xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<128xf32>, tensor<128xf32>) outs(%eo : tensor<64x128xf16>) {
  ^bb0(%acc: f32, %r0: f32, %r1: f32, %r2: f32, %cn: f32, %dn: f32, %o: f16):
    %mu = arith.divf %r0, %k : f32
    %m1 = arith.divf %r1, %k : f32
    %m2 = arith.divf %r2, %k : f32
    %m1s = arith.mulf %m1, %m1 : f32
    %var = arith.subf %m2, %m1s : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %mc = arith.mulf %mu, %cn : f32
    %t = arith.subf %acc, %mc : f32
    %u = arith.mulf %rs, %t : f32
    %z = arith.addf %u, %dn : f32
    %h = arith.truncf %z : f32 to f16
    linalg.yield %h : f16
  } -> tensor<64x128xf16>
  iree_codegen.store_to_buffer %y, %4 : tensor<64x128xf16> into memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// The same sums finished per row (row_stats.py's finish): a generic over the rows makes the
// mean and the scale r from them, and the consumer reads those two. The kernel applies the
// finish to each row's sums once, after their butterfly, and stores its two results into the
// LDS array in place of the three sums: the consumer's body is per element alone (no rsqrt on
// vectors).
// Not shared over a cluster: a cluster adds the sums up entry by entry, not row by row.
// CHECK-LABEL: func.func @layernorm_finished
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[VALUES:.+]] = memref.alloc() alignment = 16 : memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for
// CHECK:         gpu.shuffle xor
// CHECK:         %[[R:.+]] = math.rsqrt %{{.+}} : f32
// CHECK:         memref.store %{{.+}}, %[[VALUES]][%c0, %{{.+}}] : memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK:         memref.store %[[R]], %[[VALUES]][%c1, %{{.+}}] : memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK:         gpu.barrier
// CHECK:         memref.load %[[VALUES]][%c0, %{{.+}}] : memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK:         memref.load %[[VALUES]][%c1, %{{.+}}] : memref<2x64xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:     math.rsqrt
// CHECK:         return
// SHARE-LABEL: func.func @layernorm_finished
// SHARE-NOT:     nvvm.cluster_dim
// SHARE-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// SHARE-NOT:     nvvm.cluster.arrive
// SHARE:         return
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @layernorm_finished() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 96.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x96xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x128xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128xf32, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags(Indirect) : memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<64x96xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x96xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<96x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x128xf16>
  %c = iree_codegen.load_from_buffer %2 : memref<128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<128xf32>
  %d = iree_codegen.load_from_buffer %3 : memref<128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<128xf32>
  %er = tensor.empty() : tensor<64xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %ea = tensor.empty() : tensor<64x128xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<64x128xf32>) -> tensor<64x128xf32>
  %eo = tensor.empty() : tensor<64x128xf16>
  %s:3 = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, 0)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (m)>, affine_map<(m, k) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %x : tensor<64x96xf16>, tensor<64x96xf16>) outs(%fr, %fr, %fr : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  ^bb0(%v: f16, %v0: f16, %s0: f32, %s1: f32, %s2: f32):
    %a = arith.extf %v : f16 to f32
    %a0 = arith.extf %v0 : f16 to f32
    %dd = arith.subf %a, %a0 : f32
    %n0 = arith.addf %s0, %a : f32
    %n1 = arith.addf %s1, %dd : f32
    %sq = arith.mulf %dd, %dd : f32
    %n2 = arith.addf %s2, %sq : f32
    linalg.yield %n0, %n1, %n2 : f32, f32, f32
  } -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
  %rows:2 = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>, affine_map<(m) -> (m)>, affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%s#0, %s#1, %s#2 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) outs(%er, %er : tensor<64xf32>, tensor<64xf32>) {
  ^bb0(%r0: f32, %r1: f32, %r2: f32, %o0: f32, %o1: f32):
    %mu = arith.divf %r0, %k : f32
    %m1 = arith.divf %r1, %k : f32
    %m2 = arith.divf %r2, %k : f32
    %m1s = arith.mulf %m1, %m1 : f32
    %var = arith.subf %m2, %m1s : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    linalg.yield %mu, %rs : f32, f32
  } -> (tensor<64xf32>, tensor<64xf32>)
  %mm = linalg.matmul ins(%x, %w : tensor<64x96xf16>, tensor<96x128xf16>) outs(%fa : tensor<64x128xf32>) -> tensor<64x128xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %rows#0, %rows#1, %c, %d : tensor<64x128xf32>, tensor<64xf32>, tensor<64xf32>, tensor<128xf32>, tensor<128xf32>) outs(%eo : tensor<64x128xf16>) {
  ^bb0(%acc: f32, %mu: f32, %rs: f32, %cn: f32, %dn: f32, %o: f16):
    %mc = arith.mulf %mu, %cn : f32
    %t = arith.subf %acc, %mc : f32
    %u = arith.mulf %rs, %t : f32
    %z = arith.addf %u, %dn : f32
    %h = arith.truncf %z : f32 to f16
    linalg.yield %h : f16
  } -> tensor<64x128xf16>
  iree_codegen.store_to_buffer %y, %4 : tensor<64x128xf16> into memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Refused: a generic over the rows that reads another tensor beside the sums (a loaded [64]
// vector) is no finish of them (`row_stats.finishes`: the sums alone, through the identity),
// so the sums are read by another op than the consumer, and the dispatch is left to IREE.
// CHECK-LABEL: func.func @finish_reads_other
// CHECK:         linalg.matmul
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @finish_reads_other() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %g = iree_codegen.load_from_buffer %2 : memref<64xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64xf32>
  %er = tensor.empty() : tensor<64xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %ea = tensor.empty() : tensor<64x64xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: row sums of A fused into the matmul's dispatch: its results are read by other ops than the matmul's fused consumer}}
  %s = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x64xf16>) outs(%fr : tensor<64xf32>) {
  ^bb0(%v: f16, %s0: f32):
    %a = arith.extf %v : f16 to f32
    %n0 = arith.addf %s0, %a : f32
    linalg.yield %n0 : f32
  } -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m) -> (m)>, affine_map<(m) -> (m)>, affine_map<(m) -> (m)>], iterator_types = ["parallel"]}
      ins(%s, %g : tensor<64xf32>, tensor<64xf32>) outs(%er : tensor<64xf32>) {
  ^bb0(%v0: f32, %gv: f32, %o: f32):
    %q = arith.mulf %v0, %gv : f32
    linalg.yield %q : f32
  } -> tensor<64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x64xf16>, tensor<64x64xf16>) outs(%fa : tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %r : tensor<64x64xf32>, tensor<64xf32>) outs(%ea : tensor<64x64xf32>) {
  ^bb0(%acc: f32, %rv: f32, %o: f32):
    %z = arith.mulf %acc, %rv : f32
    linalg.yield %z : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %y, %3 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Refused: the sums read B, not the product's A.
// CHECK-LABEL: func.func @sums_of_b
// CHECK:         linalg.matmul
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @sums_of_b() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %er = tensor.empty() : tensor<64xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %ea = tensor.empty() : tensor<64x64xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: linalg.matmul with a fused elementwise consumer: row sums of A fused into the matmul's dispatch: a reduction beside the matmul reads another tensor than its A operand}}
  %s = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%w : tensor<64x64xf16>) outs(%fr : tensor<64xf32>) {
  ^bb0(%v: f16, %s0: f32):
    %a = arith.extf %v : f16 to f32
    %n0 = arith.addf %s0, %a : f32
    linalg.yield %n0 : f32
  } -> tensor<64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x64xf16>, tensor<64x64xf16>) outs(%fa : tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %s : tensor<64x64xf32>, tensor<64xf32>) outs(%ea : tensor<64x64xf32>) {
  ^bb0(%acc: f32, %r: f32, %o: f32):
    %z = arith.mulf %acc, %r : f32
    linalg.yield %z : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %y, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Refused: the sums are stored too (read by another op than the consumer).
// CHECK-LABEL: func.func @sums_stored
// CHECK:         linalg.matmul
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @sums_stored() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x64xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<64xf32, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<64x64xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x64xf16>
  %er = tensor.empty() : tensor<64xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %ea = tensor.empty() : tensor<64x64xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @+1 {{ldsopt-matmul-lds: left to IREE: row sums of A fused into the matmul's dispatch: its results are read by other ops than the matmul's fused consumer}}
  %s = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x64xf16>) outs(%fr : tensor<64xf32>) {
  ^bb0(%v: f16, %s0: f32):
    %a = arith.extf %v : f16 to f32
    %n0 = arith.addf %s0, %a : f32
    linalg.yield %n0 : f32
  } -> tensor<64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<64x64xf16>, tensor<64x64xf16>) outs(%fa : tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %s : tensor<64x64xf32>, tensor<64xf32>) outs(%ea : tensor<64x64xf32>) {
  ^bb0(%acc: f32, %r: f32, %o: f32):
    %z = arith.mulf %acc, %r : f32
    linalg.yield %z : f32
  } -> tensor<64x64xf32>
  iree_codegen.store_to_buffer %y, %2 : tensor<64x64xf32> into memref<64x64xf32, #hal.descriptor_type<storage_buffer>>
  iree_codegen.store_to_buffer %s, %3 : tensor<64xf32> into memref<64xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// Row values from loaded tensors: the rows' sums combined from statistics per chunk of 8
// columns (t1, t2 [64, 12], made where x was produced) and x's elements at each chunk's start
// and the row's, reduced over the 12 chunks. No sums in the K loop: before it, q lanes a row
// (as many as one pass of the threads over the 64 rows leaves each: 4 of 256 on lavapipe, lane
// l taking chunks l, l + 4 and l + 8; 2 of 128 on sm_90a) load their chunks' t1 and t2 at
// (m, c) and x at (m, 8 c) and (m, 0), every row's loads first, then apply the body as
// scalars; a butterfly over the q lanes adds their sums, and the row's first lane stores its
// values into the LDS array that the consumer reads. On sm_90a all of it after the pipeline's
// first copies are issued.
// CHECK-LABEL: func.func @layernorm_chunks
// CHECK-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// CHECK:         %[[X:.+]] = hal.interface.binding.subspan {{.*}} binding(0)
// CHECK:         %[[T1:.+]] = hal.interface.binding.subspan {{.*}} binding(4)
// CHECK:         %[[SUMS:.+]] = memref.alloc() alignment = 16 : memref<3x64xf32, #gpu.address_space<workgroup>>
// CHECK:         memref.load %[[T1]][%{{.+}}, %{{.+}}] : memref<64x12xf32, {{.*}}>
// CHECK:         memref.load %[[X]][%{{.+}}, %c0] : memref<64x96xf16, {{.*}}>
// CHECK:         memref.load %[[T1]][%{{.+}}, %{{.+}}] : memref<64x12xf32, {{.*}}>
// CHECK:         memref.load %[[T1]][%{{.+}}, %{{.+}}] : memref<64x12xf32, {{.*}}>
// CHECK:         arith.extf
// CHECK-NOT:     memref.load %[[T1]]
// CHECK:         gpu.shuffle xor %{{.+}}, %c2_i32, %c8_i32 : f32
// CHECK-NOT:     gpu.shuffle xor %{{.+}}, %c4_i32, %c8_i32 : f32
// CHECK:         memref.store %{{.+}}, %[[SUMS]][%c2, %{{.+}}] : memref<3x64xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for {{.*}} -> (vector<
// CHECK-NOT:       memref<3x64xf32
// CHECK:         gpu.barrier
// CHECK:         memref.load %[[SUMS]][%c1, %{{.+}}] : memref<3x64xf32, #gpu.address_space<workgroup>>
// CHECK:         math.rsqrt %{{.+}} : vector<{{[0-9]+}}xf32>
// CHECK-NOT:     linalg.generic
// WGMMA-LABEL: func.func @layernorm_chunks
// WGMMA-SAME:    ldsopt.lowered_by = ["ldsopt-matmul-lds"]
// WGMMA:         nvgpu.device_async_copy
// WGMMA:         memref.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<64x12xf32, {{.*}}>
// WGMMA:         gpu.shuffle xor %{{.+}}, %c1_i32, %c32_i32 : f32
// WGMMA-NOT:     gpu.shuffle xor %{{.+}}, %c2_i32
// WGMMA:         nvvm.wgmma.mma_async
// WGMMA-NOT:     gpu.shuffle
// WGMMA:         memref.load
#layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
func.func @layernorm_chunks() {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 96.0 : f32
  %w8 = arith.constant 8.0 : f32
  %two = arith.constant 2.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %0 = hal.interface.binding.subspan layout(#layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x96xf16, #hal.descriptor_type<storage_buffer>>
  %1 = hal.interface.binding.subspan layout(#layout) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<96x128xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(#layout) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(#layout) binding(3) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<128xf32, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(#layout) binding(4) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x12xf32, #hal.descriptor_type<storage_buffer>>
  %5 = hal.interface.binding.subspan layout(#layout) binding(5) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<64x12xf32, #hal.descriptor_type<storage_buffer>>
  %6 = hal.interface.binding.subspan layout(#layout) binding(6) alignment(64) offset(%c0) flags(Indirect) : memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  %x = iree_codegen.load_from_buffer %0 : memref<64x96xf16, #hal.descriptor_type<storage_buffer>> -> tensor<64x96xf16>
  %w = iree_codegen.load_from_buffer %1 : memref<96x128xf16, #hal.descriptor_type<storage_buffer>> -> tensor<96x128xf16>
  %c = iree_codegen.load_from_buffer %2 : memref<128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<128xf32>
  %d = iree_codegen.load_from_buffer %3 : memref<128xf32, #hal.descriptor_type<storage_buffer>> -> tensor<128xf32>
  %t1 = iree_codegen.load_from_buffer %4 : memref<64x12xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x12xf32>
  %t2 = iree_codegen.load_from_buffer %5 : memref<64x12xf32, #hal.descriptor_type<storage_buffer>> -> tensor<64x12xf32>
  %er = tensor.empty() : tensor<64xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %ea = tensor.empty() : tensor<64x128xf32>
  %fa = linalg.fill ins(%zero : f32) outs(%ea : tensor<64x128xf32>) -> tensor<64x128xf32>
  %eo = tensor.empty() : tensor<64x128xf16>
  %s:3 = linalg.generic {indexing_maps = [affine_map<(m, c) -> (m, c)>, affine_map<(m, c) -> (m, c)>, affine_map<(m, c) -> (m, c * 8)>, affine_map<(m, c) -> (m, 0)>, affine_map<(m, c) -> (m)>, affine_map<(m, c) -> (m)>, affine_map<(m, c) -> (m)>], iterator_types = ["parallel", "reduction"]}
      ins(%t1, %t2, %x, %x : tensor<64x12xf32>, tensor<64x12xf32>, tensor<64x96xf16>, tensor<64x96xf16>) outs(%fr, %fr, %fr : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  ^bb0(%a1: f32, %a2: f32, %h0: f16, %x0: f16, %s0: f32, %s1: f32, %s2: f32):
    %a = arith.extf %h0 : f16 to f32
    %a0 = arith.extf %x0 : f16 to f32
    %dd = arith.subf %a, %a0 : f32
    %wa = arith.mulf %w8, %a : f32
    %c0s = arith.addf %a1, %wa : f32
    %n0 = arith.addf %s0, %c0s : f32
    %wd = arith.mulf %w8, %dd : f32
    %c1s = arith.addf %a1, %wd : f32
    %n1 = arith.addf %s1, %c1s : f32
    %dt = arith.mulf %dd, %a1 : f32
    %dt2 = arith.mulf %two, %dt : f32
    %wdd = arith.mulf %wd, %dd : f32
    %c2a = arith.addf %a2, %dt2 : f32
    %c2s = arith.addf %c2a, %wdd : f32
    %n2 = arith.addf %s2, %c2s : f32
    linalg.yield %n0, %n1, %n2 : f32, f32, f32
  } -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
  %mm = linalg.matmul ins(%x, %w : tensor<64x96xf16>, tensor<96x128xf16>) outs(%fa : tensor<64x128xf32>) -> tensor<64x128xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %s#0, %s#1, %s#2, %c, %d : tensor<64x128xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<128xf32>, tensor<128xf32>) outs(%eo : tensor<64x128xf16>) {
  ^bb0(%acc: f32, %r0: f32, %r1: f32, %r2: f32, %cc: f32, %ddd: f32, %o: f16):
    %mu = arith.divf %r0, %k : f32
    %m1 = arith.divf %r1, %k : f32
    %m2 = arith.divf %r2, %k : f32
    %m1s = arith.mulf %m1, %m1 : f32
    %var = arith.subf %m2, %m1s : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %mc = arith.mulf %mu, %cc : f32
    %tt = arith.subf %acc, %mc : f32
    %u = arith.mulf %rs, %tt : f32
    %yy = arith.addf %u, %ddd : f32
    %h = arith.truncf %yy : f32 to f16
    linalg.yield %h : f16
  } -> tensor<64x128xf16>
  iree_codegen.store_to_buffer %y, %6 : tensor<64x128xf16> into memref<64x128xf16, #hal.descriptor_type<storage_buffer>>
  return
}
