// Integer keys of few values (many ties) with a payload, rows of 300 (512 slots): the kernel's
// sort is stable, each tie keeping its input order. IREE's llvm-cpu orders ties otherwise (its
// payload differs from a stable sort's), so test_lower_sort.py checks this one against numpy's
// stable sort instead of lds-run's reference.
func.func @main(%x: tensor<2x300xi32>, %p: tensor<2x300xf32>) -> (tensor<2x300xi32>, tensor<2x300xf32>) {
  %c7 = arith.constant 7 : i32
  %e = tensor.empty() : tensor<2x300xi32>
  %few = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x300xi32>) outs(%e : tensor<2x300xi32>) {
  ^bb0(%v: i32, %o: i32):
    %m = arith.remsi %v, %c7 : i32
    linalg.yield %m : i32
  } -> tensor<2x300xi32>
  %r:2 = iree_linalg_ext.sort dimension(1) outs(%few, %p : tensor<2x300xi32>, tensor<2x300xf32>) {
  ^bb0(%a: i32, %b: i32, %c: f32, %d: f32):
    %lt = arith.cmpi slt, %a, %b : i32
    iree_linalg_ext.yield %lt : i1
  } -> tensor<2x300xi32>, tensor<2x300xf32>
  return %r#0, %r#1 : tensor<2x300xi32>, tensor<2x300xf32>
}
