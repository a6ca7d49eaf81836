// A LayerNorm as ONNX and torch-mlir spell it (x extended to f32, two sums, rsqrt, the f16 rounding,
// gamma and beta) before a projection by a constant weight and a bias.
#full = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#k = affine_map<(d0, d1, d2) -> (d2)>
#w = affine_map<(d0, d1, d2) -> (d1, d2)>
util.global private @wqkv = dense<[[0.0314, -0.0330, 0.1602, 0.0262, -0.1339, 0.0904, 0.3259, 0.2368, -0.1759, -0.3164, -0.1558, 0.0103, -0.5811, -0.0547, -0.3115, -0.1831, -0.1361, -0.0791, 0.1029, 0.2607, -0.0321, 0.3416, -0.1663, 0.0879], [0.2258, 0.0235, -0.1859, -0.2305, -0.1144, 0.0551, -0.2524, -0.0523, -0.0398, 0.1353, 0.0536, 0.0889, -0.1635, -0.0324, 0.1960, 0.3733, -0.3147, 0.3784, 0.3364, 0.1953, 0.0661, -0.0785, 0.3645, 0.4900], [0.4504, 0.3289, 0.0894, -0.3020, -0.0011, 0.1641, -0.3220, 0.0988, 0.1075, 0.1740, -0.2961, -0.1654, -0.1091, -0.2925, 0.4348, -0.1240, 0.0822, -0.0646, 0.3958, 0.3301, 0.1583, -0.5508, 0.0130, 0.1709], [0.2510, -0.1544, 0.4556, -0.3301, -0.1654, 0.2338, 0.0123, 0.5005, 0.0471, -0.1583, -0.0944, -0.2727, -0.3193, 0.1576, 0.1453, 0.3237, -0.1886, 0.4224, -0.0718, 0.3936, -0.1082, -0.1838, 0.0624, 0.2578], [0.0403, -0.1464, -0.3352, -0.3503, 0.1256, 0.2474, -0.0411, -0.2686, 0.2183, -0.3201, -0.1782, 0.1553, -0.5625, 0.0966, -0.1454, 0.0273, -0.0189, 0.0505, 0.1736, -0.1896, 0.3552, 0.1815, 0.2109, 0.2913], [0.1969, 0.2111, 0.0189, -0.3567, -0.0338, -0.1924, -0.3557, 0.0646, -0.1421, -0.2576, -0.2607, 0.0671, 0.0897, 0.3306, -0.0035, 0.2605, 0.3506, 0.2876, -0.5913, 0.3071, 0.0849, 0.1060, 0.0928, 0.0957], [0.0798, -0.0897, -0.4753, -0.0272, -0.2009, 0.2700, -0.0722, 0.0209, -0.2124, -0.1277, -0.0029, -0.3713, 0.0752, -0.0265, -0.2964, -0.5996, 0.1283, -0.0744, -0.1324, -0.0591, 0.4541, -0.0125, 0.0217, -0.3718], [0.4119, 0.2294, 0.2668, 0.0119, 0.2291, 0.0927, 0.1533, -0.0381, -0.3684, 0.2573, -0.4836, -0.0600, -0.0511, -0.2607, 0.1533, -0.0501, -0.1092, 0.1300, -0.1191, 0.3472, 0.0879, -0.1186, -0.4861, -0.3269], [0.2717, -0.0126, -0.0708, 0.4109, -0.3206, -0.1464, -0.1182, 0.1466, -0.1659, -0.1533, -0.4014, 0.1824, 0.2015, -0.1191, 0.0408, -0.3232, -0.1180, 0.3445, 0.0339, 0.5776, -0.1968, 0.1450, -0.0489, 0.1415], [-0.0018, -0.1403, -0.2169, 0.7666, -0.0193, -0.5044, -0.1621, 0.1696, -0.1250, 0.3401, 0.2505, -0.0381, -0.1180, -0.2512, -0.1750, -0.3682, 0.3010, 0.3977, -0.3140, -0.2954, -0.4421, -0.2410, -0.7764, -0.2856], [0.3242, -0.0864, 0.2136, -0.1223, 0.4402, 0.0498, -0.0955, 0.6382, -0.0811, -0.3054, 0.0505, -0.0097, 0.2666, -0.2305, 0.2012, 0.2131, -0.1669, 0.0408, -0.2076, 0.5864, -0.1760, -0.1133, -0.2664, -0.0865], [-0.0015, 0.1919, -0.1526, -0.0464, -0.3540, -0.2069, 0.6890, 0.2603, -0.1953, -0.3342, -0.2439, -0.0054, 0.0087, -0.1860, -0.3215, 0.3557, 0.1129, -0.0936, -0.0552, -0.1323, -0.7339, 0.0289, -0.2676, -0.2507], [-0.1600, 0.1831, -0.2927, -0.3586, 0.1599, 0.1886, -0.2397, 0.1406, -0.0729, 0.0753, -0.3152, 0.2083, 0.3008, 0.1593, 0.1395, -0.9429, 0.0652, -0.0064, -0.0368, -0.1576, 0.0138, 0.1030, -0.0659, -0.1158], [0.3074, -0.2764, 0.2576, 0.0442, -0.2010, -0.0725, -0.2300, 0.1688, 0.0870, -0.1392, -0.2756, 0.0754, 0.2394, -0.0285, 0.1046, -0.0940, 0.0169, -0.0728, 0.0735, -0.3774, 0.1610, -0.0575, 0.0897, -0.0851], [0.0801, -0.2681, 0.2974, -0.4258, -0.2598, 0.0589, 0.3657, 0.0695, -0.0620, -0.3562, -0.0478, -0.0050, 0.4226, 0.1555, -0.3823, 0.5068, -0.0988, -0.2198, 0.3687, -0.0124, -0.0919, 0.0547, 0.2112, 0.2483], [-0.3438, 0.4995, 0.2367, -0.0948, -0.2047, -0.2423, 0.0308, -0.1620, -0.1912, 0.2028, 0.0911, -0.0986, 0.1836, 0.3418, -0.2737, -0.1509, 0.2356, 0.1797, 0.0567, 0.2905, -0.2720, -0.3699, -0.2167, 0.0306]]> : tensor<16x24xf16>
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
