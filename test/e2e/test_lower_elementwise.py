"""ldsopt-lower-elementwise end to end: each program in programs/elementwise is compiled
through IREE, run on lavapipe and checked against IREE's llvm-cpu on the original program
(awkward shapes: primes, odd rows, rank 5; f32, f16, f16->f32, i32, i64, i8); slices at offsets
read at run time; bodies that gather rows of tables (programs/gather)."""

import pathlib

import pytest

from ldsopt.measure import isa

PROGRAMS = pathlib.Path(__file__).parent / "programs" / "elementwise"


@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.mlir")))
def test_lavapipe(name, run_program):
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt", name=name)
    assert "ldsopt: ldsopt-lower-elementwise" in out


RANK0_SUM = """
func.func @main(%a: tensor<1x1xf32>) -> tensor<f32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%a : tensor<1x1xf32>) outs(%f : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}
"""


def test_rank0_output_is_left_to_iree(run_program):
    """A 1x1 -> scalar sum becomes a rank-0 elementwise dispatch (IREE drops the unit dims):
    one element, nothing to vectorize; IREE's pipeline lowers it (it crashed the pass)."""
    out = run_program(RANK0_SUM, "--target", "lavapipe")
    assert "iree-default" in out and "Traceback" not in out


def test_grid_stride_loop_covers_more_than_the_grid(run_program):
    """With at most 3 workgroups, each thread loops over many vectors: values still right."""
    run_program((PROGRAMS / "bcast_row_odd_f32.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                "--pipeline", "builtin.module(ldsopt-lower-elementwise{max-workgroups=3})")


def test_gfx942_compiles_with_wide_loads(run_program, tmp_path):
    """gfx942: 128-bit global loads and stores for a 33x64 broadcast multiply-add."""
    out = run_program((PROGRAMS / "bcast_col_and_row.mlir").read_text(), "--target", "gfx942", "--require-ldsopt",
                      "--emit-dir", str(tmp_path / "emit"))
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.global_ops.get("buffer_load_dwordx4", 0) >= 2, kernel.global_ops
    assert kernel.global_ops.get("buffer_store_dwordx4", 0) >= 1, kernel.global_ops
    assert "COMPILED" in out


GATHERS = pathlib.Path(__file__).parent / "programs" / "gather"


@pytest.mark.parametrize("name", sorted(p.stem for p in GATHERS.glob("*.mlir")))
def test_gather(name, run_program):
    """Embeddings and BERT's double gather (ids in range, drawn at random: the double gathers' row
    ids, a table's values, by the rows of the table they index), f32 and f16 rows of 32,
    40, 37 (vectors of one) and 24, one row, a body that also computes with the positions, and
    RoPE's rotate_half read at d +- 64 (a scattered gather, read element by element):
    ldsopt-lower-elementwise's, values equal to llvm-cpu's on lavapipe."""
    out = run_program((GATHERS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                      "--reference", "llvm-cpu", name=name)
    assert "ldsopt: ldsopt-lower-elementwise" in out


@pytest.mark.parametrize("target", ["cuda", "gfx942"])
def test_double_gather_compiles_for_cuda_and_gfx942(target, lds_run, tmp_path):
    """The double gather compiles for CUDA and gfx942, lowered by ldsopt (no such device here:
    CUDA's module is prepared to be replayed, gfx942's compiled)."""
    proc = lds_run(str(GATHERS / "double_gather_i32_5x40_f16.mlir"), "--target", target, "--require-ldsopt",
                   "--prepare", str(tmp_path / "prepared"))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "ldsopt: ldsopt-lower-elementwise" in out, out
    assert (tmp_path / "prepared" / "ldsopt.vmfb").exists(), out


PERMUTES = pathlib.Path(__file__).parent / "programs" / "permute"


@pytest.mark.parametrize("name", sorted(p.stem for p in PERMUTES.glob("*.mlir")))
def test_permute_keeping_the_fastest_dim(name, run_program):
    """Head split (output permuted, bias fused), head merge (input permuted), rank 6 with a
    broadcast: ldsopt-lower-elementwise takes them (preload_transposed does not: no input is
    transposed against the fastest dim), values right on lavapipe."""
    out = run_program((PERMUTES / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt", name=name)
    assert "ldsopt: ldsopt-lower-elementwise" in out


def test_head_split_gfx942_wide_loads(run_program, tmp_path):
    """gfx942: the f16 head split reads and writes 128 bits a lane along the kept fastest dim
    (40 halves: vectors of 8)."""
    run_program((PERMUTES / "head_split_bias_f16_2x7x3x40.mlir").read_text(), "--target", "gfx942",
                "--require-ldsopt", "--emit-dir", str(tmp_path / "emit"))
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.global_ops.get("buffer_load_dwordx4", 0) >= 1, kernel.global_ops
    assert kernel.global_ops.get("buffer_store_dwordx4", 0) >= 1, kernel.global_ops
    assert kernel.vgpr_spills == 0


SLICES = pathlib.Path(__file__).parent / "programs" / "elementwise_slice"
# Slices at a row or column read at run time (input 1): values that keep the rows aligned to
# the vectors and that do not, the last that fits among them.
RUN_TIME = {"gate_up_rows_at_run_time_f16_64x80": (0, 7, 51), "scale_columns_at_run_time_f32_37x64": (0, 5, 40)}


@pytest.mark.parametrize("name, value", [(n, v) for n, vs in RUN_TIME.items() for v in vs])
def test_slices_at_run_time_offsets(name, value, run_program):
    """Slices of a binding at offsets pushed at run time: against llvm-cpu on lavapipe."""
    out = run_program((SLICES / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                      "--reference", "llvm-cpu", "--input", f"1=i32={value}", name=name)
    assert "ldsopt: ldsopt-lower-elementwise" in out


@pytest.mark.parametrize("name", ["odd_lanes_negated_f32_3x9x2x16", "odd_rows_bias_f16_13x37", "even_rows_scaled_f16_10x64"])
def test_slices_at_steps(name, run_program):
    """Slices read at steps (every second element of a row, every second row): against
    llvm-cpu on lavapipe."""
    out = run_program((SLICES / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                      "--reference", "llvm-cpu", name=name)
    assert "ldsopt: ldsopt-lower-elementwise" in out


def test_slices_at_a_run_time_row_gfx942_wide_loads(run_program, tmp_path):
    """gfx942: a run-time row moves the gate and up slices by whole rows (160 bytes), so they
    are still read 16 bytes a lane."""
    run_program((SLICES / "gate_up_rows_at_run_time_f16_64x80.mlir").read_text(), "--target", "gfx942",
                "--require-ldsopt", "--input", "1=i32=7", "--emit-dir", str(tmp_path / "emit"))
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.global_ops.get("buffer_load_dwordx4", 0) >= 2, kernel.global_ops
