"""ldsopt-lower-elementwise end to end: compiled through IREE, run on lavapipe, checked
against IREE's llvm-cpu on the original program, at awkward shapes and several types."""

import pytest

from ldsopt.replay import TOLERANCES  # noqa: F401  (documents where tolerances come from)


def elementwise_program(shapes: list[str], out_shape: str, maps: list[str], body: str, out_type: str) -> str:
    """A one-generic program; `shapes` are tensor types, `maps` their indexing maps (output last)."""
    rank = out_shape.count("x")
    dims = ", ".join(f"d{i}" for i in range(rank))
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(shapes))
    ins = ", ".join(f"%a{i}" for i in range(len(shapes)))
    in_types = ", ".join(shapes)
    imaps = ", ".join(f"affine_map<({dims}) -> ({m})>" for m in maps)
    bb_args = ", ".join(f"%x{i}: {t.split('x')[-1].rstrip('>')}" for i, t in enumerate(shapes))
    return f"""func.func @main({args}) -> {out_shape} {{
  %e = tensor.empty() : {out_shape}
  %r = linalg.generic {{indexing_maps = [{imaps}], iterator_types = [{", ".join(['"parallel"'] * rank)}]}}
      ins({ins} : {in_types}) outs(%e : {out_shape}) {{
  ^bb0({bb_args}, %o: {out_type}):
{body}
  }} -> {out_shape}
  return %r : {out_shape}
}}
"""


CASES = {
    # name: (input types, output type, maps (inputs then output), body, element type)
    "bcast_row_odd_f32": (["tensor<1000x37xf32>", "tensor<37xf32>"], "tensor<1000x37xf32>",
                          ["d0, d1", "d1", "d0, d1"],
                          "    %s = arith.addf %x0, %x1 : f32\n    %y = math.exp %s : f32\n    linalg.yield %y : f32", "f32"),
    "bcast_col_and_row": (["tensor<33x64xf32>", "tensor<33xf32>", "tensor<64xf32>"], "tensor<33x64xf32>",
                          ["d0, d1", "d0", "d1", "d0, d1"],
                          "    %s = arith.addf %x0, %x1 : f32\n    %t = arith.mulf %s, %x2 : f32\n    linalg.yield %t : f32",
                          "f32"),
    "prime_1009_neg": (["tensor<1009xf32>"], "tensor<1009xf32>", ["d0", "d0"],
                       "    %y = arith.negf %x0 : f32\n    linalg.yield %y : f32", "f32"),
    "rank5_collapse": (["tensor<2x3x5x7x11xf32>", "tensor<2x3x5x7x11xf32>"], "tensor<2x3x5x7x11xf32>",
                       ["d0, d1, d2, d3, d4"] * 3,
                       "    %y = arith.subf %x0, %x1 : f32\n    linalg.yield %y : f32", "f32"),
    "relu_select_f32": (["tensor<257x129xf32>"], "tensor<257x129xf32>", ["d0, d1", "d0, d1"],
                        "    %z = arith.constant 0.0 : f32\n    %c = arith.cmpf ogt, %x0, %z : f32\n"
                        "    %y = arith.select %c, %x0, %z : f32\n    linalg.yield %y : f32", "f32"),
    "f16_mul_exp": (["tensor<4x6x10xf16>"], "tensor<4x6x10xf16>", ["d0, d1, d2", "d0, d1, d2"],
                    "    %k = arith.constant 0.5 : f16\n    %m = arith.mulf %x0, %k : f16\n"
                    "    %y = math.exp %m : f16\n    linalg.yield %y : f16", "f16"),
    "f16_to_f32_extf": (["tensor<96x160xf16>", "tensor<160xf16>"], "tensor<96x160xf32>", ["d0, d1", "d1", "d0, d1"],
                        "    %a = arith.extf %x0 : f16 to f32\n    %b = arith.extf %x1 : f16 to f32\n"
                        "    %y = arith.addf %a, %b : f32\n    linalg.yield %y : f32", "f32"),
    "i32_mul_add": (["tensor<100x30xi32>", "tensor<100x30xi32>"], "tensor<100x30xi32>", ["d0, d1"] * 3,
                    "    %m = arith.muli %x0, %x1 : i32\n    %y = arith.addi %m, %x0 : i32\n    linalg.yield %y : i32",
                    "i32"),
    "i8_add": (["tensor<3x1000xi8>", "tensor<1000xi8>"], "tensor<3x1000xi8>", ["d0, d1", "d1", "d0, d1"],
               "    %y = arith.addi %x0, %x1 : i8\n    linalg.yield %y : i8", "i8"),
    "large_1d_f32": (["tensor<300007xf32>", "tensor<300007xf32>"], "tensor<300007xf32>", ["d0"] * 3,
                     "    %y = arith.maximumf %x0, %x1 : f32\n    linalg.yield %y : f32", "f32"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_lavapipe(name, run_program):
    shapes, out, maps, body, etype = CASES[name]
    out_text = run_program(elementwise_program(shapes, out, maps, body, etype), "--target", "lavapipe",
                           "--require-ldsopt", name=name)
    assert "ldsopt: ldsopt-lower-elementwise" in out_text


def test_grid_stride_loop_covers_more_than_the_grid(run_program):
    """With at most 3 workgroups, each thread loops over many vectors: values still right."""
    shapes, out, maps, body, etype = CASES["bcast_row_odd_f32"]
    run_program(elementwise_program(shapes, out, maps, body, etype), "--target", "lavapipe", "--require-ldsopt",
                "--pipeline", "builtin.module(ldsopt-lower-elementwise{max-workgroups=3})")


def test_gfx942_compiles_with_wide_loads(run_program, tmp_path):
    """gfx942: 128-bit global loads and stores for a 64x128 f32 broadcast add."""
    text = elementwise_program(["tensor<64x128xf32>", "tensor<128xf32>"], "tensor<64x128xf32>",
                               ["d0, d1", "d1", "d0, d1"], "    %y = arith.addf %x0, %x1 : f32\n    linalg.yield %y : f32",
                               "f32")
    out = run_program(text, "--target", "gfx942", "--require-ldsopt", "--emit-dir", str(tmp_path / "emit"))
    from ldsopt import isa
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.global_ops.get("buffer_load_dwordx4", 0) >= 2, kernel.global_ops
    assert kernel.global_ops.get("buffer_store_dwordx4", 0) >= 1, kernel.global_ops
    assert "COMPILED" in out
