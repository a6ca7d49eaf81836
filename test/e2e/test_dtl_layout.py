"""ldsopt-dtl-layout end to end: matmuls (f32, f16, bf16; i8 into i32) whose operands qualify for direct-to-LDS staging
(K-contiguous TN-style operands and M/N-contiguous ones, both kept in their global order),
with tails on M and N (96, 160, 192 on tiles of 64 / 128) and on K (read as zeros), run on
lavapipe through the register path with the same LDS layouts (picked, and given) and
checked against IREE's llvm-cpu; tiles that are not powers of two (96, 160, 192 through the
`tiles` option of ldsopt-matmul-lds, whose thread maps split rows of 96 lanes by magic
divisions) likewise (320: two of its tiles exceed lavapipe's 32 KiB of LDS, so gfx942 and CUDA);
gfx942 compiles whose ISA must stage through LDS-direct loads
(`buffer_load_dword ... lds`) instead of a VGPR round trip (no ds_write); CUDA compiles whose
PTX must stage with cp.async (zero-filling past a K tail)."""

import pathlib
import re

import pytest

from ldsopt import target
from ldsopt.run import driver
from ldsopt.measure import isa

HERE = pathlib.Path(__file__).parent
PROGRAMS = {p.stem: p for d in ("matmul", "dtl", "dtl_tiles", "matmul_i8")
            for p in (HERE / "programs" / d).glob("*.mlir")}
TOLERANCE = ("--atol", "1e-3", "--rtol", "1e-3")  # as test_matmul_lds.py


def _pipeline(layout: str = "auto", tiles: str = "", stages: int = 2, matmul: str = "") -> str:
    """dtl-layout and matmul-lds with these plan options (and `matmul`'s own for matmul-lds)."""
    opt = (f" tiles={tiles}" if tiles else "") + (f" stages={stages}" if stages != 2 else "")
    return (f"builtin.module(ldsopt-vector-distribute, ldsopt-dtl-layout{{layout={layout}{opt}}}, "
            f"ldsopt-matmul-lds{{{(opt + ' ' + matmul).strip()}}})")


# Layouts by kind (the bank model's pick on lavapipe) and given explicitly: on lavapipe's FMA
# reads several kinds cost nothing, so the best of a kind can be a degenerate one (a rotation
# by one of two chunks is its own inverse); explicit layouts make every map matter.
@pytest.mark.parametrize("name, layout", [
    ("nn_f16_96x160x64", "auto"), ("nn_f16_96x160x64", "none"), ("nn_f16_96x160x64", "pad"),
    ("nn_f16_96x160x64", "rotation<2,8,4>"), ("nn_f16_96x160x64", "perm<16,8>+block_pad<512,16>"),
    ("nn_f16_96x160x64", "rotation<3,8,4>+block_pad<48,8>"),  # magic divisions by 3 and 48 (and 24)
    ("nt_f32_96x160x64", "auto"), ("tt_bf16_96x160x64", "perm<8,2>+block_pad<128,8>"),
    ("nn_f32_64x64x64", "rotation<1,4,4>"), ("nt_f16_160x192x128", "auto"),
    # K tails: the register path reads zeros past K (cp.async zero-fills them; gfx942 refuses)
    ("nt_bf16_33x17x70_acc", "auto"), ("nn_f32_257x129x65_acc", "perm<16,2>+block_pad<64,4>"),
    ("tn_f16_64x96x48", "auto"),
    # i8 (into i32): 4 elements a lane on the register path
    ("nn_i8_128x256x128", "auto"), ("nn_i8_128x256x128", "rotation<2,8,4>"), ("nt_i8_64x96x48", "auto"),
])
def test_lavapipe(name, layout, run_program):
    out = run_program(PROGRAMS[name].read_text(), "--target", "lavapipe", "--require-ldsopt", *TOLERANCE,
                      "--pipeline", _pipeline(layout), name=name)
    assert "ldsopt-dtl-layout, ldsopt-matmul-lds" in out


# Tiles given by the `tiles` option (BMxBNxTMxTN); M and N have tails on them.
@pytest.mark.parametrize("name, tiles, layout", [
    ("nt_f32_200x130x64", "160x64x5x4", "auto"), ("nt_f32_200x130x64", "160x64x5x4", "perm<16,4>+block_pad<64,4>"),
    ("nt_bf16_170x100x96", "160x64x5x4", "rotation<5,8,4>"),   # a magic division by 5
    ("nn_f32_100x200x48", "96x96x3x4", "auto"), ("nn_f32_100x200x48", "96x96x3x4", "perm<8,2>+block_pad<96,8>"),
    ("nn_f16_200x70x64", "192x64x3x4", "auto"), ("nn_f16_200x70x64", "192x64x3x4", "rotation<3,8,4>"),
])
def test_lavapipe_tiles(name, tiles, layout, run_program):
    out = run_program(PROGRAMS[name].read_text(), "--target", "lavapipe", "--require-ldsopt", *TOLERANCE,
                      "--pipeline", _pipeline(layout, tiles), name=name)
    assert "ldsopt-dtl-layout, ldsopt-matmul-lds" in out


# Three LDS tiles (more than the 2 or 3 K steps: clamped tile indices; 4 exceed lavapipe's 32 KiB),
# K tails, batches: the tile index modulo `stages` everywhere (lavapipe stages through registers).
@pytest.mark.parametrize("name, stages", [("nn_f16_96x160x64", 3), ("nn_f32_257x129x65_acc", 3),
                                          ("batch_nt_f16_2x64x80x48_acc", 3), ("tt_f32_33x17x70", 3)])
def test_lavapipe_stages(name, stages, run_program):
    out = run_program(PROGRAMS[name].read_text(), "--target", "lavapipe", "--require-ldsopt", *TOLERANCE,
                      "--pipeline", _pipeline(stages=stages), name=name)
    assert "ldsopt-dtl-layout, ldsopt-matmul-lds" in out


def _kernel(name: str, pipeline: str, run_program, folder: pathlib.Path) -> isa.KernelIsa:
    out = run_program(PROGRAMS[name].read_text(), "--target", "gfx942", "--require-ldsopt",
                      "--emit-dir", str(folder), "--pipeline", pipeline, name=name)
    assert "COMPILED" in out
    (kernel,) = isa.from_dump_dir(str(folder / "executables"))
    return kernel


@pytest.mark.parametrize("name, tiles", [("nn_f16_96x160x64", ""), ("nt_f32_96x160x64", ""),
                                         ("nt_f16_330x100x96", "320x64x5x4"), ("nn_i8_128x256x128", "")])
def test_gfx942_stages_with_lds_direct_loads(name, tiles, run_program, tmp_path):
    """Both operands go global -> LDS by `buffer_load_dword ... lds`: no ds_write at all, where
    matmul_lds alone writes every staged vector from VGPRs (both without the output stage,
    whose writes to LDS are ds_writes too)."""
    direct = _kernel(name, _pipeline(tiles=tiles, matmul="output-lds=false"), run_program, tmp_path / "dtl")
    opt = f" tiles={tiles}" if tiles else ""
    plain = _kernel(name, f"builtin.module(ldsopt-vector-distribute, ldsopt-matmul-lds{{output-lds=false{opt}}})",
                    run_program, tmp_path / "plain")
    assert direct.lds_direct_loads > 0 and plain.lds_direct_loads == 0, (direct.summary(), plain.summary())
    assert direct.ds_count("ds_write") == 0 < plain.ds_count("ds_write"), (direct.summary(), plain.summary())
    assert direct.ds_count("ds_read") > 0 and direct.mfma > 0 and direct.vgpr_spills == 0, direct.summary()


@pytest.mark.parametrize("name, k_tail, stages", [("nt_f16_160x192x128", False, 2), ("tn_f16_64x96x48", True, 2),
                                                  ("nt_f16_160x192x128", False, 3), ("nt_i8_64x96x48", True, 2)])
def test_cuda_compiles_to_cp_async(name, k_tail, stages, tmp_path):
    """sm_89: the staging is cp.async (16 bytes a lane: `.cg`) with commit / wait groups; with a K
    tail each copy also gets its source size (0 past K: zero-fill); with 3 stages each wait
    leaves the newest group in flight. Compiled here; running it needs the H200 (`lds-run FILE
    --target cuda --prepare DIR`, then replay there)."""
    configured = driver.configure(PROGRAMS[name].read_text(), target.known("cuda"), str(tmp_path))
    # 64x64 tiles given: a K of at most 64 f16 would otherwise take the short-K plan (32 K a step).
    lowered, report = driver.apply_ldsopt(configured, _pipeline(stages=stages, tiles="64x64x4x4"))
    assert "ldsopt-dtl-layout" in str(report), report
    driver.compile_module(lowered, str(tmp_path), "dtl", dump=True)
    (ptx,) = (tmp_path / "executables").glob("*.ptx")
    text = ptx.read_text()
    assert text.count("cp.async.cg.shared.global") > 0
    assert set(re.findall(r"cp\.async\.wait_group\s+(\d+)", text)) == {str(stages - 2)}, text[:2000]
    sized = re.findall(r"cp\.async\.cg\.shared\.global \[[^]]+\], \[[^]]+\], 16, %r", text)
    assert bool(sized) == k_tail, text[:2000]


@pytest.mark.parametrize("name", ["nn_f16_weighted_2100x4100x200", "nt_bf16_weighted_3000x2900x136"])
def test_cuda_large_grid_plan(name, tmp_path):
    """The default pipeline's `grids=auto` on a large 16-bit product (sm_89): cp.async staging
    3 tiles deep (each wait leaves one group in flight) in 128x256 tiles of 8 warps at one
    workgroup an SM, fragments by ldmatrix for mma.sync, and no local memory. Values: on the
    H200 (`bench/matmul_sweep.sh`'s matmul_large folder)."""
    from ldsopt.run.pipelines import DEFAULT_PIPELINE
    program = (HERE / "programs" / "matmul_large" / f"{name}.mlir").read_text()
    configured = driver.configure(program, target.known("cuda"), str(tmp_path))
    lowered, report = driver.apply_ldsopt(configured, DEFAULT_PIPELINE)
    assert "ldsopt-dtl-layout" in str(report), report
    driver.compile_module(lowered, str(tmp_path), "large", dump=True)
    text = "\n".join(p.read_text() for p in (tmp_path / "executables").glob("*.ptx"))
    start = text.index(".entry main_dispatch_0")
    product = text[start:text.find(".entry", start + 1)]
    assert ".maxntid 256, 1, 1" in product and ".minnctapersm" not in product, product[:1500]
    assert product.count("cp.async.cg.shared.global") > 0 and "ldmatrix" in product and "mma.sync" in product
    assert set(re.findall(r"cp\.async\.wait_group\s+(\d+)", product)) == {"1"}
    assert ".local" not in product
