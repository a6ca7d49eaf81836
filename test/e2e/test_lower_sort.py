"""ldsopt-lower-sort end to end: each program in programs/sort (an argsort's keys and indices
over rows of 37, keys alone descending down columns of 100) compiled through IREE, run on
lavapipe and checked against the reference; integer keys with many ties checked against
numpy's stable sort (IREE's llvm-cpu orders ties otherwise); few threads and workgroups;
ViT-MAE, whose two sorts IREE 3.13 cannot compile for Vulkan, every dispatch ldsopt's; the LDS
network in gfx942's ISA and CUDA's PTX."""

import pathlib
import re

import numpy as np
import pytest

from ldsopt.measure import isa

PROGRAMS = pathlib.Path(__file__).parent / "programs" / "sort"
STABLE = "ties_i32_2x300"


@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.mlir") if p.stem != STABLE))
def test_lavapipe(name, run_program):
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt", name=name)
    assert re.search(r"^dispatch \w+_sort_\w+: ldsopt: ldsopt-lower-sort$", out, re.M), out


def test_ties_keep_their_order(lds_run, tmp_path):
    """Keys of 7 values over rows of 300, each moving a payload: the keys sorted and every tie's
    payload in its input order (numpy's stable argsort as the reference)."""
    rng = np.random.default_rng(7)
    x, p = rng.integers(-1000, 1000, (2, 300)).astype(np.int32), rng.standard_normal((2, 300)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "p.npy", p)
    proc = lds_run(str(PROGRAMS / f"{STABLE}.mlir"), "--target", "lavapipe", "--input", f"0=@{tmp_path}/x.npy",
                   "--input", f"1=@{tmp_path}/p.npy", "--emit-dir", str(tmp_path / "run"))
    assert "ldsopt: ldsopt-lower-sort" in proc.stdout, proc.stdout + proc.stderr
    keys = np.fmod(x, 7)
    order = np.argsort(keys, axis=1, kind="stable")
    got_keys = np.fromfile(tmp_path / "run" / "output0.bin", dtype=np.int32).reshape(2, 300)
    got_payload = np.fromfile(tmp_path / "run" / "output1.bin", dtype=np.float32).reshape(2, 300)
    assert np.array_equal(got_keys, np.take_along_axis(keys, order, 1))
    assert np.array_equal(got_payload, np.take_along_axis(p, order, 1))


def test_few_threads_and_workgroups(run_program):
    """4 threads over 32 pairs a step, 2 workgroups for 3 rows."""
    run_program((PROGRAMS / "argsort_f32_3x37.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                "--pipeline", "builtin.module(ldsopt-lower-sort{workgroup-size=4 max-workgroups=2}, canonicalize, cse)")


def test_gfx942_network_in_lds(run_program, tmp_path):
    """gfx942: rows of 300 (512 slots, 256 threads: 4 waves) read and written in LDS, a barrier
    after each of the network's 45 steps, no spills. (A workgroup of one wave, as rows of 37
    make, has its barriers elided by LLVM.)"""
    out = run_program((PROGRAMS / f"{STABLE}.mlir").read_text(), "--target", "gfx942", "--require-ldsopt",
                      "--emit-dir", str(tmp_path / "emit"))
    assert "COMPILED" in out
    kernels = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    (kernel,) = [x for x in kernels if "_sort_" in x.name]
    assert kernel.ds_ops and kernel.barriers >= 45, (kernel.ds_ops, kernel.barriers)
    assert kernel.vgpr_spills == kernel.sgpr_spills == 0, kernel


def test_cuda_ptx(ptx_of, tmp_path):
    ptx, report = ptx_of((PROGRAMS / "descending_f32_100x5.mlir").read_text(), "cuda", tmp_path)
    assert "ldsopt-lower-sort" in str(report), report
    assert re.search(r"st\.shared\.f32|st\.shared\.b32|st\.shared\.u32", ptx) and "bar.sync" in ptx
