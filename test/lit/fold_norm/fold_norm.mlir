// ldsopt-fold-norm on programs: a LayerNorm or RMSNorm read only by matmuls by constant weights
// is folded into them: each product reads x and gamma * W (made at load, behind a barrier), a
// generic sums x's rows beside it, and the consumer y = R * (acc - mean * c) + d normalizes
// the product; the three and the product's elementwise consumers form one dispatch region.
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-fold-norm)' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=all --pass-pipeline='builtin.module(ldsopt-fold-norm)' -o %t

// A LayerNorm as ONNX and torch-mlir spell it (x extended to f32, a sum, a division, a
// broadcast, a subtraction, a square, a sum, rsqrt, the f16 rounding, then gamma and beta in f16)
// before a projection by a constant weight and a bias. The rows' sums are of x, of x - x[m, 0]
// and of its square; the variance is T2 / K - (T1 / K)^2, the mean sum(x) / K.
// CHECK-LABEL: func.func @layernorm_qkv
// CHECK-SAME:    (%[[X:.+]]: tensor<1x8x16xf16>, %[[BIAS:.+]]: tensor<24xf16>)
// CHECK:         %[[W:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<16x24xf16>) outs(%{{.+}} : tensor<1x16x24xf16>)
// CHECK:         %[[GW:.+]] = linalg.generic {{.*}} ins(%[[W]], %{{.+}} : tensor<1x16x24xf16>, tensor<16xf16>)
// CHECK:         %[[W2:.+]] = iree_tensor_ext.compute_barrier.end %[[GW]] : tensor<1x16x24xf16>
// CHECK:         %[[C:.+]] = iree_tensor_ext.compute_barrier.end %{{.+}} : tensor<1x24xf32>
// CHECK:         %[[D:.+]] = iree_tensor_ext.compute_barrier.end %{{.+}} : tensor<1x24xf32>
// CHECK:         %[[R:.+]] = flow.dispatch.region -> (tensor<1x8x24xf16>) {
// CHECK:           %[[S:.+]]:3 = linalg.generic {indexing_maps = [#{{.+}}, #[[FIRST:.+]], #{{.+}}, #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[X]] : tensor<1x8x16xf16>, tensor<1x8x16xf16>)
// CHECK:           %[[ROW:.+]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[S]]#0, %[[S]]#1, %[[S]]#2 : tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>)
// CHECK:             math.rsqrt
// CHECK:           %[[P:.+]] = linalg.batch_matmul ins(%[[X]], %[[W2]] : tensor<1x8x16xf16>, tensor<1x16x24xf16>)
// CHECK:           %[[Y:.+]] = linalg.generic {{.*}} ins(%[[P]], %[[ROW]]#0, %[[ROW]]#1, %[[C]], %[[D]] :
// CHECK-NOT:         math.rsqrt
// CHECK:             arith.subf
// CHECK:             arith.mulf
// CHECK:             arith.addf
// CHECK-NEXT:        linalg.yield
// CHECK:           %[[B:.+]] = linalg.generic {{.*}} ins(%[[Y]], %[[BIAS]] : tensor<1x8x24xf32>, tensor<24xf16>)
// CHECK:           flow.return %[[B]] : tensor<1x8x24xf16>
// CHECK:         return %[[R]]
// The norm's own ops are gone.
// CHECK-NOT:     linalg.generic
#full = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#k = affine_map<(d0, d1, d2) -> (d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
util.global private @wqkv = dense<0.125> : tensor<16x24xf16>
func.func @layernorm_qkv(%x: tensor<1x8x16xf16>, %bias: tensor<24xf16>) -> tensor<1x8x24xf16> {
  %zero = arith.constant 0.0 : f32
  %gamma = arith.constant dense<[1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5]> : tensor<16xf16>
  %beta = arith.constant dense<[0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5]> : tensor<16xf16>
  %k = arith.constant 16.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e32 = tensor.empty() : tensor<1x8x16xf32>
  %xf = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x16xf16>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %er = tensor.empty() : tensor<1x8x1xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %sum = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xf : tensor<1x8x16xf32>) outs(%fr : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %mean = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum : tensor<1x8x1xf32>) outs(%er : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %k : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %meanc = tensor.collapse_shape %mean [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
  %meanb = linalg.generic {indexing_maps = [#row, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%meanc : tensor<1x8xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x16xf32>
  %d = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%xf, %meanb : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.subf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %sq = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %d : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %ss = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<1x8x16xf32>) outs(%fr : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %rstd = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<1x8x1xf32>) outs(%er : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %k : f32
    %e = arith.addf %v, %eps : f32
    %r = math.rsqrt %e : f32
    linalg.yield %r : f32
  } -> tensor<1x8x1xf32>
  %e16 = tensor.empty() : tensor<1x8x16xf16>
  %n = linalg.generic {indexing_maps = [#full, #keep, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %rstd : tensor<1x8x16xf32>, tensor<1x8x1xf32>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%a: f32, %b: f32, %out: f16):
    %v = arith.mulf %a, %b : f32
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x8x16xf16>
  %a = linalg.generic {indexing_maps = [#full, #k, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %gamma, %beta : tensor<1x8x16xf16>, tensor<16xf16>, tensor<16xf16>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%v: f16, %g: f16, %b: f16, %out: f16):
    %m = arith.mulf %v, %g : f16
    %s = arith.addf %m, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x16xf16>
  %w = util.global.load @wqkv : tensor<16x24xf16>
  %ew = tensor.empty() : tensor<1x16x24xf16>
  %wb = linalg.generic {indexing_maps = [#w, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<16x24xf16>) outs(%ew : tensor<1x16x24xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<1x16x24xf16>
  %eacc = tensor.empty() : tensor<1x8x24xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  // expected-remark @+1 {{ldsopt-fold-norm: LayerNorm over 16 folded into the product and its row sums}}
  %mm = linalg.batch_matmul ins(%a, %wb : tensor<1x8x16xf16>, tensor<1x16x24xf16>) outs(%facc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  %eo = tensor.empty() : tensor<1x8x24xf16>
  %y = linalg.generic {indexing_maps = [#full, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %bias : tensor<1x8x24xf32>, tensor<24xf16>) outs(%eo : tensor<1x8x24xf16>) {
  ^bb0(%v: f32, %b: f16, %out: f16):
    %t = arith.truncf %v : f32 to f16
    %s = arith.addf %t, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x24xf16>
  return %y : tensor<1x8x24xf16>
}

// -----

// An RMSNorm as the ONNX importer spells Llama's in f16 (x * x, a sum and its mean in f16, an
// epsilon tensor, sqrt, a reciprocal with torch-mlir's check of a zero divisor, gamma): the
// rows' sum of squares alone, no mean; computed in f32.
// CHECK-LABEL: func.func @rmsnorm_gate
// CHECK:         flow.dispatch.region
// CHECK:           linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}} : tensor<1x8x16xf16>)
// CHECK:             arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
// CHECK:             math.sqrt %{{.+}} : f32
// CHECK:           linalg.batch_matmul
// CHECK-NOT:       arith.subf
// CHECK:           flow.return
#full = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#k = affine_map<(d0, d1, d2) -> (d2)>
#scalar = affine_map<(d0, d1, d2) -> ()>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @rmsnorm_gate(%x: tensor<1x8x16xf16>) -> tensor<1x8x32xf32> {
  %zero = arith.constant 0.0 : f16
  %zf = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f16
  %k = arith.constant 16.0 : f16
  %eps = arith.constant dense<1.0e-5> : tensor<f16>
  %gamma = arith.constant dense<[1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5]> : tensor<16xf16>
  %wc = arith.constant dense<0.0625> : tensor<16x32xf16>
  %e16 = tensor.empty() : tensor<1x8x16xf16>
  %sq = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %x : tensor<1x8x16xf16>, tensor<1x8x16xf16>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %v = arith.mulf %a, %b : f16
    linalg.yield %v : f16
  } -> tensor<1x8x16xf16>
  %er = tensor.empty() : tensor<1x8x1xf16>
  %fr = linalg.fill ins(%zero : f16) outs(%er : tensor<1x8x1xf16>) -> tensor<1x8x1xf16>
  %ss = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<1x8x16xf16>) outs(%fr : tensor<1x8x1xf16>) {
  ^bb0(%in: f16, %out: f16):
    %v = arith.addf %in, %out : f16
    linalg.yield %v : f16
  } -> tensor<1x8x1xf16>
  %ms = linalg.generic {indexing_maps = [#full, #scalar, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %eps : tensor<1x8x1xf16>, tensor<f16>) outs(%er : tensor<1x8x1xf16>) {
  ^bb0(%in: f16, %e: f16, %out: f16):
    %m = arith.divf %in, %k : f16
    %v = arith.addf %m, %e : f16
    %s = math.sqrt %v : f16
    %nz = arith.cmpf one, %s, %zero : f16
    cf.assert %nz, "unimplemented: tensor with zero element"
    %r = arith.divf %one, %s : f16
    linalg.yield %r : f16
  } -> tensor<1x8x1xf16>
  %n = linalg.generic {indexing_maps = [#full, #keep, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %ms, %gamma : tensor<1x8x16xf16>, tensor<1x8x1xf16>, tensor<16xf16>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%a: f16, %r: f16, %g: f16, %out: f16):
    %v = arith.mulf %a, %r : f16
    %t = arith.mulf %v, %g : f16
    linalg.yield %t : f16
  } -> tensor<1x8x16xf16>
  %ew = tensor.empty() : tensor<1x16x32xf16>
  %wb = linalg.generic {indexing_maps = [#w, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%wc : tensor<16x32xf16>) outs(%ew : tensor<1x16x32xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<1x16x32xf16>
  %eacc = tensor.empty() : tensor<1x8x32xf32>
  %facc = linalg.fill ins(%zf : f32) outs(%eacc : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  // expected-remark @+1 {{ldsopt-fold-norm: RMSNorm over 16 folded into the product and its row sums}}
  %mm = linalg.batch_matmul ins(%n, %wb : tensor<1x8x16xf16>, tensor<1x16x32xf16>) outs(%facc : tensor<1x8x32xf32>) -> tensor<1x8x32xf32>
  return %mm : tensor<1x8x32xf32>
}

// -----

// Left alone: the normalized rows are also a result of the function (a post-LN block's residual).
// CHECK-LABEL: func.func @normalized_rows_returned
// CHECK-NOT:     flow.dispatch.region
#full = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#k = affine_map<(d0, d1, d2) -> (d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
util.global private @wqkv = dense<0.125> : tensor<16x24xf16>
func.func @normalized_rows_returned(%x: tensor<1x8x16xf16>, %bias: tensor<24xf16>) -> (tensor<1x8x24xf16>, tensor<1x8x16xf16>) {
  %zero = arith.constant 0.0 : f32
  %gamma = arith.constant dense<[1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5]> : tensor<16xf16>
  %beta = arith.constant dense<[0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5]> : tensor<16xf16>
  %k = arith.constant 16.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e32 = tensor.empty() : tensor<1x8x16xf32>
  %xf = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x16xf16>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %er = tensor.empty() : tensor<1x8x1xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %sum = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xf : tensor<1x8x16xf32>) outs(%fr : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %mean = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum : tensor<1x8x1xf32>) outs(%er : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %k : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %meanc = tensor.collapse_shape %mean [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
  %meanb = linalg.generic {indexing_maps = [#row, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%meanc : tensor<1x8xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x16xf32>
  %d = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%xf, %meanb : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.subf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %sq = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %d : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %ss = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<1x8x16xf32>) outs(%fr : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %rstd = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<1x8x1xf32>) outs(%er : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %k : f32
    %e = arith.addf %v, %eps : f32
    %r = math.rsqrt %e : f32
    linalg.yield %r : f32
  } -> tensor<1x8x1xf32>
  %e16 = tensor.empty() : tensor<1x8x16xf16>
  %n = linalg.generic {indexing_maps = [#full, #keep, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %rstd : tensor<1x8x16xf32>, tensor<1x8x1xf32>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%a: f32, %b: f32, %out: f16):
    %v = arith.mulf %a, %b : f32
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x8x16xf16>
  %a = linalg.generic {indexing_maps = [#full, #k, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %gamma, %beta : tensor<1x8x16xf16>, tensor<16xf16>, tensor<16xf16>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%v: f16, %g: f16, %b: f16, %out: f16):
    %m = arith.mulf %v, %g : f16
    %s = arith.addf %m, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x16xf16>
  %w = util.global.load @wqkv : tensor<16x24xf16>
  %ew = tensor.empty() : tensor<1x16x24xf16>
  %wb = linalg.generic {indexing_maps = [#w, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<16x24xf16>) outs(%ew : tensor<1x16x24xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<1x16x24xf16>
  %eacc = tensor.empty() : tensor<1x8x24xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  // expected-remark @+1 {{ldsopt-fold-norm: left alone: the normalized rows have other users than matmuls by constant weights}}
  %mm = linalg.batch_matmul ins(%a, %wb : tensor<1x8x16xf16>, tensor<1x16x24xf16>) outs(%facc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  %eo = tensor.empty() : tensor<1x8x24xf16>
  %y = linalg.generic {indexing_maps = [#full, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %bias : tensor<1x8x24xf32>, tensor<24xf16>) outs(%eo : tensor<1x8x24xf16>) {
  ^bb0(%v: f32, %b: f16, %out: f16):
    %t = arith.truncf %v : f32 to f16
    %s = arith.addf %t, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x24xf16>
  return %y, %a : tensor<1x8x24xf16>, tensor<1x8x16xf16>
}

// -----

// Left alone: the weights are an argument, not constants (W' could not be made at load).
// CHECK-LABEL: func.func @weights_an_argument
// CHECK-NOT:     flow.dispatch.region
#full = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#k = affine_map<(d0, d1, d2) -> (d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
util.global private @wqkv = dense<0.125> : tensor<16x24xf16>
func.func @weights_an_argument(%x: tensor<1x8x16xf16>, %bias: tensor<24xf16>, %wa: tensor<16x24xf16>) -> tensor<1x8x24xf16> {
  %zero = arith.constant 0.0 : f32
  %gamma = arith.constant dense<[1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5]> : tensor<16xf16>
  %beta = arith.constant dense<[0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5]> : tensor<16xf16>
  %k = arith.constant 16.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e32 = tensor.empty() : tensor<1x8x16xf32>
  %xf = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x16xf16>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %er = tensor.empty() : tensor<1x8x1xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %sum = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xf : tensor<1x8x16xf32>) outs(%fr : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %mean = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum : tensor<1x8x1xf32>) outs(%er : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %k : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %meanc = tensor.collapse_shape %mean [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
  %meanb = linalg.generic {indexing_maps = [#row, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%meanc : tensor<1x8xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x16xf32>
  %d = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%xf, %meanb : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.subf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %sq = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %d : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %ss = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<1x8x16xf32>) outs(%fr : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %rstd = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<1x8x1xf32>) outs(%er : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %k : f32
    %e = arith.addf %v, %eps : f32
    %r = math.rsqrt %e : f32
    linalg.yield %r : f32
  } -> tensor<1x8x1xf32>
  %e16 = tensor.empty() : tensor<1x8x16xf16>
  %n = linalg.generic {indexing_maps = [#full, #keep, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %rstd : tensor<1x8x16xf32>, tensor<1x8x1xf32>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%a: f32, %b: f32, %out: f16):
    %v = arith.mulf %a, %b : f32
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x8x16xf16>
  %a = linalg.generic {indexing_maps = [#full, #k, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %gamma, %beta : tensor<1x8x16xf16>, tensor<16xf16>, tensor<16xf16>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%v: f16, %g: f16, %b: f16, %out: f16):
    %m = arith.mulf %v, %g : f16
    %s = arith.addf %m, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x16xf16>
  %w = util.global.load @wqkv : tensor<16x24xf16>
  %ew = tensor.empty() : tensor<1x16x24xf16>
  %wb = linalg.generic {indexing_maps = [#w, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%wa : tensor<16x24xf16>) outs(%ew : tensor<1x16x24xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<1x16x24xf16>
  %eacc = tensor.empty() : tensor<1x8x24xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  // expected-remark @+1 {{ldsopt-fold-norm: left alone: a product's weights are not constants}}
  %mm = linalg.batch_matmul ins(%a, %wb : tensor<1x8x16xf16>, tensor<1x16x24xf16>) outs(%facc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  %eo = tensor.empty() : tensor<1x8x24xf16>
  %y = linalg.generic {indexing_maps = [#full, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %bias : tensor<1x8x24xf32>, tensor<24xf16>) outs(%eo : tensor<1x8x24xf16>) {
  ^bb0(%v: f32, %b: f16, %out: f16):
    %t = arith.truncf %v : f32 to f16
    %s = arith.addf %t, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x24xf16>
  return %y : tensor<1x8x24xf16>
}

// -----

// Left alone: the product's f32 result and its f16 one both leave (no one dispatch of it).
// CHECK-LABEL: func.func @two_results_out
// CHECK-NOT:     flow.dispatch.region
#full = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#k = affine_map<(d0, d1, d2) -> (d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
util.global private @wqkv = dense<0.125> : tensor<16x24xf16>
func.func @two_results_out(%x: tensor<1x8x16xf16>, %bias: tensor<24xf16>) -> (tensor<1x8x24xf16>, tensor<1x8x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %gamma = arith.constant dense<[1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5]> : tensor<16xf16>
  %beta = arith.constant dense<[0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5]> : tensor<16xf16>
  %k = arith.constant 16.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e32 = tensor.empty() : tensor<1x8x16xf32>
  %xf = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x16xf16>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %er = tensor.empty() : tensor<1x8x1xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %sum = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xf : tensor<1x8x16xf32>) outs(%fr : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %mean = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum : tensor<1x8x1xf32>) outs(%er : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %k : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %meanc = tensor.collapse_shape %mean [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
  %meanb = linalg.generic {indexing_maps = [#row, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%meanc : tensor<1x8xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x16xf32>
  %d = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%xf, %meanb : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.subf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %sq = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %d : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %ss = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<1x8x16xf32>) outs(%fr : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %rstd = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<1x8x1xf32>) outs(%er : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %k : f32
    %e = arith.addf %v, %eps : f32
    %r = math.rsqrt %e : f32
    linalg.yield %r : f32
  } -> tensor<1x8x1xf32>
  %e16 = tensor.empty() : tensor<1x8x16xf16>
  %n = linalg.generic {indexing_maps = [#full, #keep, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %rstd : tensor<1x8x16xf32>, tensor<1x8x1xf32>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%a: f32, %b: f32, %out: f16):
    %v = arith.mulf %a, %b : f32
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x8x16xf16>
  %a = linalg.generic {indexing_maps = [#full, #k, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %gamma, %beta : tensor<1x8x16xf16>, tensor<16xf16>, tensor<16xf16>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%v: f16, %g: f16, %b: f16, %out: f16):
    %m = arith.mulf %v, %g : f16
    %s = arith.addf %m, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x16xf16>
  %w = util.global.load @wqkv : tensor<16x24xf16>
  %ew = tensor.empty() : tensor<1x16x24xf16>
  %wb = linalg.generic {indexing_maps = [#w, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<16x24xf16>) outs(%ew : tensor<1x16x24xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<1x16x24xf16>
  %eacc = tensor.empty() : tensor<1x8x24xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  // expected-remark @+1 {{ldsopt-fold-norm: left alone: the product's consumers are not one chain IREE would fuse into one dispatch with it}}
  %mm = linalg.batch_matmul ins(%a, %wb : tensor<1x8x16xf16>, tensor<1x16x24xf16>) outs(%facc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  %eo = tensor.empty() : tensor<1x8x24xf16>
  %y = linalg.generic {indexing_maps = [#full, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %bias : tensor<1x8x24xf32>, tensor<24xf16>) outs(%eo : tensor<1x8x24xf16>) {
  ^bb0(%v: f32, %b: f16, %out: f16):
    %t = arith.truncf %v : f32 to f16
    %s = arith.addf %t, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x24xf16>
  return %y, %mm : tensor<1x8x24xf16>, tensor<1x8x24xf32>
}

// -----

// An RMSNorm written with powers (x ** 2, (mean + eps) ** -0.5) in f32, before a product whose
// weight is stored N x K: x * x summed, and the rows' scale as rsqrt; gamma scales W along its
// second dim.
// CHECK-LABEL: func.func @rmsnorm_powers
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<24x16xf32>, tensor<16xf32>)
// CHECK:         flow.dispatch.region
// CHECK:           math.rsqrt %{{.+}} : f32
// CHECK:           linalg.matmul
// CHECK-NOT:       math.powf
// CHECK:           flow.return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
#k2 = affine_map<(d0, d1) -> (d1)>
func.func @rmsnorm_powers(%x: tensor<8x16xf32>) -> tensor<8x24xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant 16.0 : f32
  %two = arith.constant 2.0 : f32
  %half = arith.constant -0.5 : f32
  %eps = arith.constant 1.0e-6 : f32
  %gamma = arith.constant dense<[1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5]> : tensor<16xf32>
  %w = arith.constant dense<0.0625> : tensor<24x16xf32>
  %er = tensor.empty() : tensor<8xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<8xf32>) -> tensor<8xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x16xf32>) outs(%fr : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.powf %in, %two : f32
    %v = arith.addf %out, %p : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %n = linalg.generic {indexing_maps = [#id2, #row2, #k2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %ss, %gamma : tensor<8x16xf32>, tensor<8xf32>, tensor<16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %s: f32, %g: f32, %out: f32):
    %m = arith.divf %s, %k : f32
    %me = arith.addf %m, %eps : f32
    %r = math.powf %me, %half : f32
    %v = arith.mulf %a, %r : f32
    %t = arith.mulf %v, %g : f32
    linalg.yield %t : f32
  } -> tensor<8x16xf32>
  %eacc = tensor.empty() : tensor<8x24xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<8x24xf32>) -> tensor<8x24xf32>
  // expected-remark @+1 {{ldsopt-fold-norm: RMSNorm over 16 folded into the product and its row sums}}
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%n, %w : tensor<8x16xf32>, tensor<24x16xf32>) outs(%facc : tensor<8x24xf32>) -> tensor<8x24xf32>
  return %mm : tensor<8x24xf32>
}

// -----

// Left alone: the product sums into the bias (torch's addmm, transformers' Conv1D), which the
// normalizing consumer would scale.
// CHECK-LABEL: func.func @bias_as_init
// CHECK-NOT:     flow.dispatch.region
#full = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#k = affine_map<(d0, d1, d2) -> (d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
util.global private @wqkv = dense<0.125> : tensor<16x24xf16>
func.func @bias_as_init(%x: tensor<1x8x16xf16>, %bias: tensor<24xf16>) -> tensor<1x8x24xf16> {
  %zero = arith.constant 0.0 : f32
  %gamma = arith.constant dense<[1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5]> : tensor<16xf16>
  %beta = arith.constant dense<[0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5]> : tensor<16xf16>
  %k = arith.constant 16.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e32 = tensor.empty() : tensor<1x8x16xf32>
  %xf = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x16xf16>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %er = tensor.empty() : tensor<1x8x1xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %sum = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xf : tensor<1x8x16xf32>) outs(%fr : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %mean = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum : tensor<1x8x1xf32>) outs(%er : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %k : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %meanc = tensor.collapse_shape %mean [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
  %meanb = linalg.generic {indexing_maps = [#row, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%meanc : tensor<1x8xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x16xf32>
  %d = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%xf, %meanb : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.subf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %sq = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %d : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %ss = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<1x8x16xf32>) outs(%fr : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %rstd = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<1x8x1xf32>) outs(%er : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %k : f32
    %e = arith.addf %v, %eps : f32
    %r = math.rsqrt %e : f32
    linalg.yield %r : f32
  } -> tensor<1x8x1xf32>
  %e16 = tensor.empty() : tensor<1x8x16xf16>
  %n = linalg.generic {indexing_maps = [#full, #keep, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %rstd : tensor<1x8x16xf32>, tensor<1x8x1xf32>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%a: f32, %b: f32, %out: f16):
    %v = arith.mulf %a, %b : f32
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x8x16xf16>
  %a = linalg.generic {indexing_maps = [#full, #k, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %gamma, %beta : tensor<1x8x16xf16>, tensor<16xf16>, tensor<16xf16>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%v: f16, %g: f16, %b: f16, %out: f16):
    %m = arith.mulf %v, %g : f16
    %s = arith.addf %m, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x16xf16>
  %w = util.global.load @wqkv : tensor<16x24xf16>
  %ew = tensor.empty() : tensor<1x16x24xf16>
  %wb = linalg.generic {indexing_maps = [#w, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<16x24xf16>) outs(%ew : tensor<1x16x24xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<1x16x24xf16>
  %eacc = tensor.empty() : tensor<1x8x24xf32>
  %facc = linalg.generic {indexing_maps = [#k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias : tensor<24xf16>) outs(%eacc : tensor<1x8x24xf32>) {
  ^bb0(%b: f16, %out: f32):
    %v = arith.extf %b : f16 to f32
    linalg.yield %v : f32
  } -> tensor<1x8x24xf32>
  // expected-remark @+1 {{ldsopt-fold-norm: left alone: a product adds into a loaded init (a bias), which the norm's scale would scale too}}
  %mm = linalg.batch_matmul ins(%a, %wb : tensor<1x8x16xf16>, tensor<1x16x24xf16>) outs(%facc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  %eo = tensor.empty() : tensor<1x8x24xf16>
  %y = linalg.generic {indexing_maps = [#full, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %bias : tensor<1x8x24xf32>, tensor<24xf16>) outs(%eo : tensor<1x8x24xf16>) {
  ^bb0(%v: f32, %b: f16, %out: f16):
    %t = arith.truncf %v : f32 to f16
    %s = arith.addf %t, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x24xf16>
  return %y : tensor<1x8x24xf16>
}

// -----

// The norm's rows viewed as a matrix for a matmul (torch's addmm in transformers' Conv1D: [1, 8, 16]
// collapsed to [8, 16]): x is collapsed the same way, and the product and its sums read it.
// CHECK-LABEL: func.func @layernorm_2d_view
// CHECK-SAME:    (%[[X:.+]]: tensor<1x8x16xf16>
// CHECK:         %[[X2:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<1x8x16xf16> into tensor<8x16xf16>
// CHECK:         flow.dispatch.region -> (tensor<8x24xf16>)
// CHECK:           linalg.generic {{.*}} ins(%[[X2]], %[[X2]] : tensor<8x16xf16>, tensor<8x16xf16>)
// CHECK:           linalg.matmul ins(%[[X2]], %{{.+}} : tensor<8x16xf16>, tensor<16x24xf16>)
// CHECK:           flow.return
#full = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#k = affine_map<(d0, d1, d2) -> (d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#n2 = affine_map<(d0, d1) -> (d1)>
util.global private @wqkv2 = dense<0.125> : tensor<16x24xf16>
func.func @layernorm_2d_view(%x: tensor<1x8x16xf16>, %bias: tensor<24xf16>) -> tensor<8x24xf16> {
  %zero = arith.constant 0.0 : f32
  %gamma = arith.constant dense<[1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5, 1.0, 0.5, 2.0, 1.5]> : tensor<16xf16>
  %beta = arith.constant dense<[0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5, 0.0, 0.25, -0.25, 0.5]> : tensor<16xf16>
  %k = arith.constant 16.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e32 = tensor.empty() : tensor<1x8x16xf32>
  %xf = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x16xf16>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %er = tensor.empty() : tensor<1x8x1xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %sum = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xf : tensor<1x8x16xf32>) outs(%fr : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %mean = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum : tensor<1x8x1xf32>) outs(%er : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %k : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %meanc = tensor.collapse_shape %mean [[0], [1, 2]] : tensor<1x8x1xf32> into tensor<1x8xf32>
  %meanb = linalg.generic {indexing_maps = [#row, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%meanc : tensor<1x8xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x16xf32>
  %d = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%xf, %meanb : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.subf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %sq = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %d : tensor<1x8x16xf32>, tensor<1x8x16xf32>) outs(%e32 : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x16xf32>
  %ss = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<1x8x16xf32>) outs(%fr : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %out : f32
    linalg.yield %v : f32
  } -> tensor<1x8x1xf32>
  %rstd = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss : tensor<1x8x1xf32>) outs(%er : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %k : f32
    %e = arith.addf %v, %eps : f32
    %r = math.rsqrt %e : f32
    linalg.yield %r : f32
  } -> tensor<1x8x1xf32>
  %e16 = tensor.empty() : tensor<1x8x16xf16>
  %n = linalg.generic {indexing_maps = [#full, #keep, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %rstd : tensor<1x8x16xf32>, tensor<1x8x1xf32>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%a: f32, %b: f32, %out: f16):
    %v = arith.mulf %a, %b : f32
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x8x16xf16>
  %a = linalg.generic {indexing_maps = [#full, #k, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %gamma, %beta : tensor<1x8x16xf16>, tensor<16xf16>, tensor<16xf16>) outs(%e16 : tensor<1x8x16xf16>) {
  ^bb0(%v: f16, %g: f16, %b: f16, %out: f16):
    %m = arith.mulf %v, %g : f16
    %s = arith.addf %m, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x16xf16>
  %w = util.global.load @wqkv2 : tensor<16x24xf16>
  %a2 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<1x8x16xf16> into tensor<8x16xf16>
  %eacc = tensor.empty() : tensor<8x24xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<8x24xf32>) -> tensor<8x24xf32>
  // expected-remark @+1 {{ldsopt-fold-norm: LayerNorm over 16 folded into the product and its row sums}}
  %mm = linalg.matmul ins(%a2, %w : tensor<8x16xf16>, tensor<16x24xf16>) outs(%facc : tensor<8x24xf32>) -> tensor<8x24xf32>
  %eo = tensor.empty() : tensor<8x24xf16>
  %y = linalg.generic {indexing_maps = [#id2, #n2, #id2], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<8x24xf32>, tensor<24xf16>) outs(%eo : tensor<8x24xf16>) {
  ^bb0(%v: f32, %b: f16, %out: f16):
    %t = arith.truncf %v : f32 to f16
    %s = arith.addf %t, %b : f16
    linalg.yield %s : f16
  } -> tensor<8x24xf16>
  return %y : tensor<8x24xf16>
}
