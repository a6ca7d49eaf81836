// ldsopt-fold-norm{stats=producer}: the norm's statistics come from the product that makes x
// (its elementwise epilogue's result): that product's dispatch region gains sums per chunk of
// 64 columns of x (x - h0 and its square, h0 the chunk's first element), and the folded
// product's row sums combine them (ldsopt-matmul-lds's row values from loaded tensors) instead
// of summing x's rows in its K loop.
// RUN: lds-opt %s --split-input-file --target=lavapipe --pass-pipeline='builtin.module(ldsopt-fold-norm{stats=producer})' | filecheck %s
// RUN: lds-opt %s --split-input-file --target=lavapipe --verify-diagnostics --remarks=all --pass-pipeline='builtin.module(ldsopt-fold-norm{stats=producer})' -o %t

// x = f16(in @ Wo) + res, then a LayerNorm over its 128 columns (two chunks) before a
// projection: the product before, its epilogue and the chunks' sums are one region of three
// results (x itself is read on, as a residual stream is).
// CHECK-LABEL: func.func @residual_layernorm_qkv
// CHECK:         %[[H:.+]]:3 = flow.dispatch.region -> (tensor<1x8x128xf16>, tensor<1x8x2xf32>, tensor<1x8x2xf32>) {
// CHECK:           linalg.batch_matmul
// CHECK:           %[[X:.+]] = linalg.generic
// CHECK:           %[[T:.+]]:2 = linalg.generic {indexing_maps = [#{{.+}}, #[[HEAD:.+]], #[[CHUNK:.+]], #[[CHUNK]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[X]] :
// CHECK:           flow.return %[[X]], %[[T]]#0, %[[T]]#1
// CHECK:         %[[R:.+]] = flow.dispatch.region -> (tensor<1x8x24xf16>) {
// CHECK:           %[[S:.+]]:3 = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[H]]#1, %[[H]]#2, %[[H]]#0, %[[H]]#0 : tensor<1x8x2xf32>, tensor<1x8x2xf32>, tensor<1x8x128xf16>, tensor<1x8x128xf16>)
// CHECK:           %[[ROW:.+]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[S]]#0, %[[S]]#1, %[[S]]#2 :
// CHECK:           linalg.batch_matmul ins(%[[H]]#0, %{{.+}} : tensor<1x8x128xf16>, tensor<1x128x24xf16>)
// CHECK:           linalg.generic {{.*}} ins(%{{.+}}, %[[ROW]]#0, %[[ROW]]#1,
// CHECK:         return %[[R]], %[[H]]#0
#full = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#k = affine_map<(d0, d1, d2) -> (d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
util.global private @wo = dense<0.0625> : tensor<128x128xf16>
util.global private @wqkv = dense<0.125> : tensor<128x24xf16>
func.func @residual_layernorm_qkv(%arg: tensor<1x8x128xf16>, %res: tensor<1x8x128xf16>, %bias: tensor<24xf16>) -> (tensor<1x8x24xf16>, tensor<1x8x128xf16>) {
  %zero = arith.constant 0.0 : f32
  %wo = util.global.load @wo : tensor<128x128xf16>
  %ewo = tensor.empty() : tensor<1x128x128xf16>
  %wob = linalg.generic {indexing_maps = [#w, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%wo : tensor<128x128xf16>) outs(%ewo : tensor<1x128x128xf16>) {
  ^bb0(%in0: f16, %out: f16):
    linalg.yield %in0 : f16
  } -> tensor<1x128x128xf16>
  %eo32 = tensor.empty() : tensor<1x8x128xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo32 : tensor<1x8x128xf32>) -> tensor<1x8x128xf32>
  %po = linalg.batch_matmul ins(%arg, %wob : tensor<1x8x128xf16>, tensor<1x128x128xf16>) outs(%fo : tensor<1x8x128xf32>) -> tensor<1x8x128xf32>
  %ex = tensor.empty() : tensor<1x8x128xf16>
  %x = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%po, %res : tensor<1x8x128xf32>, tensor<1x8x128xf16>) outs(%ex : tensor<1x8x128xf16>) {
  ^bb0(%p: f32, %r: f16, %out: f16):
    %t = arith.truncf %p : f32 to f16
    %s = arith.addf %t, %r : f16
    linalg.yield %s : f16
  } -> tensor<1x8x128xf16>
  %gamma = arith.constant dense<1.5> : tensor<128xf16>
  %beta = arith.constant dense<0.25> : tensor<128xf16>
  %k = arith.constant 128.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e32 = tensor.empty() : tensor<1x8x128xf32>
  %xf = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x128xf16>) outs(%e32 : tensor<1x8x128xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<1x8x128xf32>
  %er = tensor.empty() : tensor<1x8x1xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %sum = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xf : tensor<1x8x128xf32>) outs(%fr : tensor<1x8x1xf32>) {
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
  %meanb = linalg.generic {indexing_maps = [#row, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%meanc : tensor<1x8xf32>) outs(%e32 : tensor<1x8x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x128xf32>
  %d = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%xf, %meanb : tensor<1x8x128xf32>, tensor<1x8x128xf32>) outs(%e32 : tensor<1x8x128xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.subf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x128xf32>
  %sq = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %d : tensor<1x8x128xf32>, tensor<1x8x128xf32>) outs(%e32 : tensor<1x8x128xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x128xf32>
  %ss = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<1x8x128xf32>) outs(%fr : tensor<1x8x1xf32>) {
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
  %e16 = tensor.empty() : tensor<1x8x128xf16>
  %n = linalg.generic {indexing_maps = [#full, #keep, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %rstd : tensor<1x8x128xf32>, tensor<1x8x1xf32>) outs(%e16 : tensor<1x8x128xf16>) {
  ^bb0(%a: f32, %b: f32, %out: f16):
    %v = arith.mulf %a, %b : f32
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x8x128xf16>
  %a = linalg.generic {indexing_maps = [#full, #k, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %gamma, %beta : tensor<1x8x128xf16>, tensor<128xf16>, tensor<128xf16>) outs(%e16 : tensor<1x8x128xf16>) {
  ^bb0(%v: f16, %g: f16, %b: f16, %out: f16):
    %m = arith.mulf %v, %g : f16
    %s = arith.addf %m, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x128xf16>
  %w = util.global.load @wqkv : tensor<128x24xf16>
  %ew = tensor.empty() : tensor<1x128x24xf16>
  %wb = linalg.generic {indexing_maps = [#w, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<128x24xf16>) outs(%ew : tensor<1x128x24xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<1x128x24xf16>
  %eacc = tensor.empty() : tensor<1x8x24xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  // expected-remark @+1 {{ldsopt-fold-norm: LayerNorm over 128 folded into the product and its row sums, combined from the statistics per chunk the product before makes}}
  %mm = linalg.batch_matmul ins(%a, %wb : tensor<1x8x128xf16>, tensor<1x128x24xf16>) outs(%facc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  %eo = tensor.empty() : tensor<1x8x24xf16>
  %y = linalg.generic {indexing_maps = [#full, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %bias : tensor<1x8x24xf32>, tensor<24xf16>) outs(%eo : tensor<1x8x24xf16>) {
  ^bb0(%v: f32, %b: f16, %out: f16):
    %t = arith.truncf %v : f32 to f16
    %s = arith.addf %t, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x24xf16>
  return %y, %x : tensor<1x8x24xf16>, tensor<1x8x128xf16>
}

// -----

// x a function argument: no product makes it; the norm stays as it is.
// CHECK-LABEL: func.func @input_layernorm_qkv
// CHECK-NOT:     flow.dispatch.region
#full = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#k = affine_map<(d0, d1, d2) -> (d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
util.global private @wqkv = dense<0.125> : tensor<128x24xf16>
func.func @input_layernorm_qkv(%x: tensor<1x8x128xf16>, %bias: tensor<24xf16>) -> tensor<1x8x24xf16> {
  %zero = arith.constant 0.0 : f32
  %gamma = arith.constant dense<1.5> : tensor<128xf16>
  %beta = arith.constant dense<0.25> : tensor<128xf16>
  %k = arith.constant 128.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e32 = tensor.empty() : tensor<1x8x128xf32>
  %xf = linalg.generic {indexing_maps = [#full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x128xf16>) outs(%e32 : tensor<1x8x128xf32>) {
  ^bb0(%in: f16, %out: f32):
    %v = arith.extf %in : f16 to f32
    linalg.yield %v : f32
  } -> tensor<1x8x128xf32>
  %er = tensor.empty() : tensor<1x8x1xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %sum = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xf : tensor<1x8x128xf32>) outs(%fr : tensor<1x8x1xf32>) {
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
  %meanb = linalg.generic {indexing_maps = [#row, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%meanc : tensor<1x8xf32>) outs(%e32 : tensor<1x8x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x128xf32>
  %d = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%xf, %meanb : tensor<1x8x128xf32>, tensor<1x8x128xf32>) outs(%e32 : tensor<1x8x128xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.subf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x128xf32>
  %sq = linalg.generic {indexing_maps = [#full, #full, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %d : tensor<1x8x128xf32>, tensor<1x8x128xf32>) outs(%e32 : tensor<1x8x128xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<1x8x128xf32>
  %ss = linalg.generic {indexing_maps = [#full, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<1x8x128xf32>) outs(%fr : tensor<1x8x1xf32>) {
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
  %e16 = tensor.empty() : tensor<1x8x128xf16>
  %n = linalg.generic {indexing_maps = [#full, #keep, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %rstd : tensor<1x8x128xf32>, tensor<1x8x1xf32>) outs(%e16 : tensor<1x8x128xf16>) {
  ^bb0(%a: f32, %b: f32, %out: f16):
    %v = arith.mulf %a, %b : f32
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x8x128xf16>
  %a = linalg.generic {indexing_maps = [#full, #k, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %gamma, %beta : tensor<1x8x128xf16>, tensor<128xf16>, tensor<128xf16>) outs(%e16 : tensor<1x8x128xf16>) {
  ^bb0(%v: f16, %g: f16, %b: f16, %out: f16):
    %m = arith.mulf %v, %g : f16
    %s = arith.addf %m, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x128xf16>
  %w = util.global.load @wqkv : tensor<128x24xf16>
  %ew = tensor.empty() : tensor<1x128x24xf16>
  %wb = linalg.generic {indexing_maps = [#w, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<128x24xf16>) outs(%ew : tensor<1x128x24xf16>) {
  ^bb0(%in: f16, %out: f16):
    linalg.yield %in : f16
  } -> tensor<1x128x24xf16>
  %eacc = tensor.empty() : tensor<1x8x24xf32>
  %facc = linalg.fill ins(%zero : f32) outs(%eacc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  // expected-remark @+1 {{ldsopt-fold-norm: left alone: x is not made by a product's elementwise epilogue (stats=producer)}}
  %mm = linalg.batch_matmul ins(%a, %wb : tensor<1x8x128xf16>, tensor<1x128x24xf16>) outs(%facc : tensor<1x8x24xf32>) -> tensor<1x8x24xf32>
  %eo = tensor.empty() : tensor<1x8x24xf16>
  %y = linalg.generic {indexing_maps = [#full, #k, #full], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %bias : tensor<1x8x24xf32>, tensor<24xf16>) outs(%eo : tensor<1x8x24xf16>) {
  ^bb0(%v: f32, %b: f16, %out: f16):
    %t = arith.truncf %v : f32 to f16
    %s = arith.addf %t, %b : f16
    linalg.yield %s : f16
  } -> tensor<1x8x24xf16>
  return %y : tensor<1x8x24xf16>
}

