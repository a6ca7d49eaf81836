"""ldsopt.measure.dispatch_work: the bytes and FLOPs of each dispatch of a configured module,
on a matmul with a bias epilogue and an elementwise add as IREE 3.13 configures them for gfx942."""

from iree.compiler import ir

from ldsopt.measure import cases
from ldsopt.measure.dispatch_work import dispatch_work
from ldsopt.run import driver

PROGRAM = """
func.func @main(%a: tensor<64x48xf16>, %b: tensor<48x32xf16>, %bias: tensor<32xf32>, %x: tensor<1000xf32>,
                %y: tensor<1000xf32>) -> (tensor<64x32xf32>, tensor<1000xf32>) {
  %e = tensor.empty() : tensor<64x32xf32>
  %c0 = arith.constant 0.0 : f32
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x48xf16>, tensor<48x32xf16>) outs(%f : tensor<64x32xf32>) -> tensor<64x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x32xf32>, tensor<32xf32>)
                       outs(%e : tensor<64x32xf32>) {
  ^bb0(%m: f32, %c: f32, %o: f32):
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  %sum = arith.addf %x, %y : tensor<1000xf32>
  return %r, %sum : tensor<64x32xf32>, tensor<1000xf32>
}
"""


def test_bytes_and_flops_per_dispatch(tmp_path):
    configured = driver.configure(PROGRAM, driver.target_model.known("gfx942"), str(tmp_path))
    with ir.Context():
        work = dispatch_work(ir.Module.parse(configured))
    matmul = next(w for n, w in work.items() if "matmul" in n)
    add = next(w for n, w in work.items() if "matmul" not in n)
    assert matmul == {"bytes": 64 * 48 * 2 + 48 * 32 * 2 + 32 * 4 + 64 * 32 * 4, "flops": 2 * 64 * 32 * 48,
                      "type": "f16"}
    assert add == {"bytes": 3 * 1000 * 4, "flops": 0, "type": None}


def test_a_layernorm_dispatch_is_no_matmul(tmp_path):
    """IREE configures a LayerNorm for CUDA as one dispatch of its row sums, their finish and the
    normalization: the matmul matcher took the sums apart and was left with no op (IndexError in
    `lds-bench --target cuda`); it is a dispatch of no FLOPs counted."""
    program = next(c for c in cases.CASES if c.name == "layernorm_512x768_f16").mlir
    configured = driver.configure(program, driver.target_model.known("cuda"), str(tmp_path))
    with ir.Context():
        work = dispatch_work(ir.Module.parse(configured))
    assert work and all(w["flops"] == 0 for w in work.values())
