"""ldsopt-lower-copy end to end: IREE's copy dispatches (pads of images into their buffers,
slices read and written at static, strided and run-time offsets) compiled through IREE, run on
lavapipe and checked against the reference (awkward shapes: odd channel counts, prime extents,
padding 1 and 3, a scalar tail; f32, f16, bf16, i8); the 16-byte accesses in gfx942's ISA and
CUDA's PTX."""

import pathlib
import re

import pytest

from ldsopt import target
from ldsopt.measure import isa
from ldsopt.run import driver
from ldsopt.run.pipelines import DEFAULT_PIPELINE

PROGRAMS = pathlib.Path(__file__).parent / "programs" / "copy"
# Programs with an offset read at run time: the input that holds it, and columns that keep the
# rows aligned to the vectors and that do not.
DYNAMIC = {"slice_dynamic_offset_f32_37x64": ("1", (0, 5, 8, 40)),
           "update_dynamic_offset_f16_37x64": ("2", (3, 16, 41))}


@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.mlir") if p.stem not in DYNAMIC))
def test_lavapipe(name, run_program):
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt", name=name)
    assert re.search(r"^dispatch \w+_slow_memcpy: ldsopt: ldsopt-lower-copy$", out, re.M), out


@pytest.mark.parametrize("name, column", [(n, c) for n, (_, cs) in DYNAMIC.items() for c in cs])
def test_dynamic_offset(name, column, run_program):
    """The vector plan where the column keeps the rows aligned, the scalar one elsewhere (the
    last column that fits included): both right."""
    arg, _ = DYNAMIC[name]
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                      "--input", f"{arg}=i32={column}", name=name)
    assert "ldsopt: ldsopt-lower-copy" in out


def test_grid_stride_loop_covers_more_than_the_grid(run_program):
    """One workgroup: each thread copies many vectors, then its rows' tails."""
    run_program((PROGRAMS / "slice_into_slice_f32_41x64_8_37.mlir").read_text(), "--target", "lavapipe",
                "--require-ldsopt", "--pipeline", "builtin.module(ldsopt-lower-copy{max-workgroups=1}, canonicalize, cse)")


def test_gfx942_copies_16_bytes_a_lane(run_program, tmp_path):
    """gfx942: the NHWC f16 pad reads and writes 16 bytes a lane, nothing narrower."""
    out = run_program((PROGRAMS / "pad_nhwc_p1_f16_2x13x11x64.mlir").read_text(), "--target", "gfx942",
                      "--require-ldsopt", "--emit-dir", str(tmp_path / "emit"))
    assert "COMPILED" in out
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert set(kernel.global_ops) == {"buffer_load_dwordx4", "buffer_store_dwordx4"}, kernel.global_ops


def test_cuda_vector_and_scalar_plans(tmp_path):
    """sm_89: a slice at a run-time column copies by ld/st.global.v4 where the column keeps the
    rows aligned and by scalars where it does not (both in the PTX)."""
    program = (PROGRAMS / "slice_dynamic_offset_f32_37x64.mlir").read_text()
    configured = driver.configure(program, target.known("cuda"), str(tmp_path))
    lowered, report = driver.apply_ldsopt(configured, DEFAULT_PIPELINE)
    assert "ldsopt-lower-copy" in str(report), report
    driver.compile_module(lowered, str(tmp_path), "copy", dump=True)
    (ptx,) = (tmp_path / "executables").glob("*.ptx")
    text = ptx.read_text()
    assert re.search(r"ld\.global(\.nc)?\.v4\.[bfu]32", text) and re.search(r"st\.global\.v4\.[bfu]32", text), text
    assert re.search(r"ld\.global(\.nc)?\.[bfu]32", text) and re.search(r"st\.global\.[bfu]32", text), text
