// AvgPool2d(3, stride 2, padding 1, count_include_pad=False) of NCHW x [2, 5, 13, 11], as
// PyTorch's export writes it: the sum over the zero-padded image, then the divide by the count
// of the window's points inside the image, computed from the output's position (linalg.index).
func.func @main(%x: tensor<2x5x13x11xf32>) -> tensor<2x5x7x6xf32> {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %zero : f32
  } : tensor<2x5x13x11xf32> to tensor<2x5x15x13xf32>
  %e = tensor.empty() : tensor<2x5x7x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x7x6xf32>) -> tensor<2x5x7x6xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %y = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%xp, %win : tensor<2x5x15x13xf32>, tensor<3x3xf32>) outs(%f : tensor<2x5x7x6xf32>) -> tensor<2x5x7x6xf32>
  %e2 = tensor.empty() : tensor<2x5x7x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<2x5x7x6xf32>) outs(%e2 : tensor<2x5x7x6xf32>) {
    ^bb0(%v: f32, %out: f32):
      %c0 = arith.constant 0 : i64
      %c1 = arith.constant 1 : i64
      %c2 = arith.constant 2 : i64
      %h_last = arith.constant 12 : i64
      %w_last = arith.constant 10 : i64
      %oh = linalg.index 2 : index
      %ohi = arith.index_cast %oh : index to i64
      %h0 = arith.muli %ohi, %c2 : i64
      %hs = arith.subi %h0, %c1 : i64
      %hsc = arith.maxsi %hs, %c0 : i64
      %he = arith.addi %h0, %c1 : i64
      %hec = arith.minsi %he, %h_last : i64
      %hn0 = arith.subi %hec, %hsc : i64
      %hn = arith.addi %hn0, %c1 : i64
      %ow = linalg.index 3 : index
      %owi = arith.index_cast %ow : index to i64
      %w0 = arith.muli %owi, %c2 : i64
      %ws = arith.subi %w0, %c1 : i64
      %wsc = arith.maxsi %ws, %c0 : i64
      %we = arith.addi %w0, %c1 : i64
      %wec = arith.minsi %we, %w_last : i64
      %wn0 = arith.subi %wec, %wsc : i64
      %wn = arith.addi %wn0, %c1 : i64
      %n = arith.muli %hn, %wn : i64
      %nf = arith.sitofp %n : i64 to f32
      %q = arith.divf %v, %nf : f32
      linalg.yield %q : f32
  } -> tensor<2x5x7x6xf32>
  return %r : tensor<2x5x7x6xf32>
}
