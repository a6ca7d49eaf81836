"""ldsopt-matmul-lds end to end: each program in programs/matmul (NN, NT, TN, TT; f32, f16,
bf16 inputs with f32 accumulation; batched; tails on M, N and K; zero, constant and loaded
inits, and a bias broadcast into the init of a grouped 1x1 convolution), each in programs/matmul_epilogue (a fused elementwise consumer: bias, GELU by erf
and by tanh, ReLU, SiLU, scaling by a constant, a 0-d or a broadcast tensor, residual,
truncf to f16 or bf16, bias + activation + truncf in one generic), in
programs/matmul_prologue (an operand computed by a fused elementwise producer: a
dequantization), in programs/matmul_skinny (M or N of 1 to 16), in programs/matmul_named
(the named forms: `matmul_transpose_b` and `batch_matmul_transpose_b` as IREE before 3.13
spelled them, `linalg.matmul` / `batch_matmul` with indexing_maps, `linalg.contract`, a
generic whose loops are permuted, batches read as torch.matmul broadcasts them (A's batch of
1 at index 0) or einsum leaves them (A's batch its middle dim); M = 1, K = 1, batch 3, f16
out), in programs/matmul_row_sums (the sums of A's rows beside the product, a
normalization folded into it), in programs/matmul_row_values (the same with its rows' sums
combined from statistics per chunk of columns loaded beside the product), in
programs/matmul_chunk_stats (those statistics made from the product's own residual epilogue,
further results of its dispatch) and in programs/matmul_i8
(i8 x i8 -> i32: named and generic, NN, NT, TN, TT, batch 3, M = 1, K = 1, a constant fill and
a loaded init, a dequantizing consumer to f32, requantizing ones to i8 and an i32 bias) is compiled through IREE, run on lavapipe and
checked against IREE's llvm-cpu on the original program; plus gfx942 compiles whose ISA must
show the LDS staging and MFMAs (i8 ones for i8).
CUDA (mma.sync for f16/bf16/i8) runs on the H200: `lds-run programs/matmul/*.mlir --target cuda
--prepare DIR`, then `python -m ldsopt.run.replay DIR` there."""

import collections
import pathlib
import re

import pytest

from ldsopt import target
from ldsopt.run import driver
from ldsopt.measure import cases, isa

PROGRAMS = pathlib.Path(__file__).parent / "programs" / "matmul"
EPILOGUES = pathlib.Path(__file__).parent / "programs" / "matmul_epilogue"
NAMED = pathlib.Path(__file__).parent / "programs" / "matmul_named"
I8 = pathlib.Path(__file__).parent / "programs" / "matmul_i8"
PROLOGUES = pathlib.Path(__file__).parent / "programs" / "matmul_prologue"
SKINNY = pathlib.Path(__file__).parent / "programs" / "matmul_skinny"
F16_OUT = pathlib.Path(__file__).parent / "programs" / "matmul_f16_out"
ROW_SUMS = pathlib.Path(__file__).parent / "programs" / "matmul_row_sums"
ROW_VALUES = pathlib.Path(__file__).parent / "programs" / "matmul_row_values"
CHUNK_STATS = pathlib.Path(__file__).parent / "programs" / "matmul_chunk_stats"
# Prologue programs whose producer IREE 3.13 puts in a dispatch of its own.
DISPATCHED_APART = {"scale_a_f32_33x40x70"}
# f32 accumulation in another order than llvm-cpu's (and tf32-free f32 products): small
# relative differences on sums of up to 70 unit-normal products.
TOLERANCE = ("--atol", "1e-3", "--rtol", "1e-3")
# The default pipeline with the matmul passes' tiling pinned to 64x64 (4 waves on gfx942).
PINNED_64x64 = ("builtin.module(ldsopt-vector-distribute, ldsopt-inthread-transpose{tiles=64x64x4x4}, "
                "ldsopt-matmul-lds{tiles=64x64x4x4}, ldsopt-preload-transposed, ldsopt-lower-elementwise, "
                "canonicalize, cse)")


@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.mlir")))
def test_lavapipe(name, run_program):
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                      *TOLERANCE, name=name)
    # ldsopt-inthread-transpose, in the default pipeline, is named first where it restaged an operand.
    assert re.search(r"ldsopt: (ldsopt-inthread-transpose, )?ldsopt-matmul-lds$", out, re.M), out


def _tolerance(text: str) -> tuple[str, ...]:
    """TOLERANCE, but lds-run's own (that of the float types the program rounds in) where the
    program returns bf16 or multiplies in f16: its f64 reference rounds neither, and half a
    bf16 ulp (up to 2^-8 relative), or f16 products rounded in each of K terms, exceed 1e-3."""
    low = re.search(r"-> tensor<[0-9x]*xbf16> \{", text) or re.search(r"arith\.mulf .* : f16$", text, re.M)
    return () if low else TOLERANCE


@pytest.mark.parametrize("name", sorted(p.stem for p in EPILOGUES.glob("*.mlir")))
def test_epilogue_lavapipe(name, run_program):
    """The matmul and its fused consumer are one kernel of ours (the dispatch is not left to IREE)."""
    text = (EPILOGUES / f"{name}.mlir").read_text()
    out = run_program(text, "--target", "lavapipe", "--require-ldsopt", *_tolerance(text), name=name)
    assert re.search(r"ldsopt: (ldsopt-inthread-transpose, )?ldsopt-matmul-lds$", out, re.M), out


# Named forms of one row (M = 1) whose B holds K innermost: matrix-vector products, which
# ldsopt-vector-distribute takes first, as rows of B against the vector (its fused rows).
ONE_ROW = {"batch_maps_nt_f16_3x1x40x70", "transpose_b_f16_1x70x40"}


@pytest.mark.parametrize("name", sorted(p.stem for p in NAMED.glob("*.mlir")))
def test_named_lavapipe(name, run_program):
    """Each named form is one kernel of ours (with its fused consumer where it has one)."""
    out = run_program((NAMED / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                      *TOLERANCE, name=name)
    lowered_by = r"ldsopt-vector-distribute" if name in ONE_ROW else r"(ldsopt-inthread-transpose, )?ldsopt-matmul-lds"
    assert re.search(rf"ldsopt: {lowered_by}$", out, re.M), out


@pytest.mark.parametrize("name", sorted(p.stem for p in I8.glob("*.mlir")))
def test_i8_lavapipe(name, run_program):
    """Each i8 x i8 -> i32 program is one kernel of ours, its i32 sums equal to llvm-cpu's (the
    inputs span [-128, 127]: a kernel that did not sign-extend them would differ); the i8 of a
    requantizing consumer equal too (its f32 scaling and rounding are the program's)."""
    out = run_program((I8 / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                      *TOLERANCE, name=name)
    assert re.search(r"ldsopt: (ldsopt-inthread-transpose, )?ldsopt-matmul-lds$", out, re.M), out


@pytest.mark.parametrize("name", sorted(p.stem for p in PROLOGUES.glob("*.mlir")))
def test_prologue_lavapipe(name, run_program):
    """An operand computed by a producer IREE fuses into the matmul's dispatch (dequantization
    of f16 or i8 by a per-channel scale, on A or B, with a zero point, with an epilogue too)
    is one kernel of ours; a plain f32 scaling of A, which IREE dispatches apart, two."""
    text = (PROLOGUES / f"{name}.mlir").read_text()
    out = run_program(text, "--target", "lavapipe", "--require-ldsopt", *_tolerance(text), name=name)
    assert re.search(r"ldsopt: (ldsopt-inthread-transpose, )?ldsopt-matmul-lds$", out, re.M), out
    dispatches = 2 if name in DISPATCHED_APART else 1
    assert f"ldsopt lowered {dispatches} of {dispatches} dispatches" in out, out


@pytest.mark.parametrize("name", sorted(p.stem for p in ROW_SUMS.glob("*.mlir")))
def test_row_sums_lavapipe(name, run_program):
    """A LayerNorm or RMSNorm folded into the product (a dispatch region of the sums of x's
    rows, x @ W and the consumer that normalizes with them: ldsopt/matmul/row_stats.py; the
    rows' mean and scale finished from the sums in a generic of their own, or in the consumer)
    is one kernel of ours, ragged M, N and K and a batch included, its values llvm-cpu's."""
    text = (ROW_SUMS / f"{name}.mlir").read_text()
    out = run_program(text, "--target", "lavapipe", "--require-ldsopt", name=name)
    assert re.search(r"ldsopt: (ldsopt-inthread-transpose, )?ldsopt-matmul-lds$", out, re.M), out
    assert "ldsopt lowered 1 of 1 dispatches" in out, out


@pytest.mark.parametrize("name", sorted(p.stem for p in ROW_VALUES.glob("*.mlir")))
def test_row_values_lavapipe(name, run_program):
    """A norm folded into the product whose rows' sums are combined from per-chunk statistics
    made by a dispatch before (loaded tensors read through a chunk's stride, and x's first
    element: row_stats.py's loaded row values, finished per row or not): the product's
    dispatch is one kernel of ours, odd chunk widths and ragged M and K included, its values
    llvm-cpu's."""
    text = (ROW_VALUES / f"{name}.mlir").read_text()
    out = run_program(text, "--target", "lavapipe", name=name)
    assert re.search(r"^dispatch main_dispatch_1_matmul_\S+: ldsopt: (ldsopt-inthread-transpose, )?ldsopt-matmul-lds$",
                     out, re.M), out


@pytest.mark.parametrize("name", sorted(p.stem for p in CHUNK_STATS.glob("*.mlir")))
def test_chunk_stats_lavapipe(name, run_program):
    """A product's residual epilogue and statistics per chunk of its result in one dispatch
    (ldsopt/matmul/chunk_stats.py: from the output stage's tile, further results): one kernel
    of ours, prime M, chunks of 8 and 64 and the last N tile's chunks past N, all three
    outputs llvm-cpu's."""
    out = run_program((CHUNK_STATS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                      name=name)
    assert re.search(r"ldsopt: (ldsopt-inthread-transpose, )?ldsopt-matmul-lds$", out, re.M), out
    assert "ldsopt lowered 1 of 1 dispatches" in out and "3 outputs" in out, out


@pytest.mark.parametrize("name", ["residual_chunks_f16_37x72x40", "residual_chunks_f16_45x80x56"])
def test_chunk_stats_in_registers_lavapipe(name, run_program, tmp_path):
    """`output-lds=false`: statistics per chunk of an unstaged tile, from the values each thread
    stores (chunk_stats.emit_registers: the chunk's first element shuffled from its first lane,
    the sums added over its lanes): chunks of 8 and 16 in lavapipe's subgroups of 8, M prime and
    N past the tile, all three outputs llvm-cpu's."""
    pipeline = driver.DEFAULT_PIPELINE.replace("ldsopt-matmul-lds,", "ldsopt-matmul-lds{output-lds=false},")
    run_program((CHUNK_STATS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                "--pipeline", pipeline, "--emit-dir", str(tmp_path / "emit"), name=name)
    kernel = (tmp_path / "emit" / "ldsopt.mlir").read_text()
    assert "ldsopt.output_stage" not in kernel and "gpu.shuffle idx" in kernel


@pytest.mark.parametrize("name", sorted(p.stem for p in SKINNY.glob("*.mlir")))
def test_skinny_lavapipe(name, run_program, tmp_path):
    """Skinny products (M or N of 1 to 16, K of 1000 or 4096) get the 16-wide tilings in 64
    threads: for M small the 16 x 64 tile, one workgroup row (B is read once, each K row of
    its tile by 16 threads in consecutive vectors along N); for N small the 64 x 16 one, one
    workgroup column (A is read once)."""
    out = run_program((SKINNY / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt",
                      *TOLERANCE, "--emit-dir", str(tmp_path / "emit"), name=name)
    assert re.search(r"ldsopt: ldsopt-matmul-lds$", out, re.M), out
    kernel = (tmp_path / "emit" / "ldsopt.mlir").read_text()
    staged = dict(re.findall(r'operand = "([AB])".*?threads = 64 : i64, tile = (\[\d+, \d+\])', kernel))
    if name.startswith("m"):  # (m, k) and (k, n) tiles
        assert staged["A"].startswith("[16,") and staged["B"].endswith(" 64]"), staged
        assert re.search(r"gpu.block_id y upper_bound 1\b", kernel)
    else:
        assert staged["A"].startswith("[64,") and staged["B"].endswith(" 16]"), staged
        assert re.search(r"gpu.block_id x upper_bound 1\b", kernel)


# Programs of awkward shapes for the output stage forced on the FMA path: M and N past the tile
# (96 x 160 and 33 x 40 in 64 x 64 tiles), a batch, the consumer's result stored permuted (head
# merge), f16 and i32 outputs, M = 1. Left without a stage, and run as before: N = 129 (odd) and
# N = 5 (no copy wider than the pieces), and an f32 tile of 64 x 64 past the 32 KiB of LDS
# that lavapipe's operand tiles leave (the batch with a loaded init).
UNSTAGED = ("nn_f32_257x129x65_acc", "nt_f16_100x5x40", "batch_nt_f16_2x64x80x48_acc")
OUTPUT_STAGE = [PROGRAMS / "nn_f16_96x160x64.mlir", PROGRAMS / "batch_nt_f16_2x64x80x48_acc.mlir",
                EPILOGUES / "head_merge_f32_3x33x40x33.mlir", EPILOGUES / "bias_silu_f16_3x33x40x70.mlir",
                EPILOGUES / "m1_bias_f16_1x40x70.mlir", I8 / "nn_i8_128x256x128.mlir",
                PROGRAMS / "nn_f32_257x129x65_acc.mlir", PROGRAMS / "nt_f16_100x5x40.mlir"]


@pytest.mark.parametrize("program", OUTPUT_STAGE, ids=lambda p: p.stem)
def test_output_stage_lavapipe(program, run_program, tmp_path):
    """output-lds=true: the output through LDS (ldsopt/matmul/output_stage.py) on lavapipe's
    FMA kernels, values checked against the reference. Their micro-tiles of 8 x 2 leave a thread
    pieces of 2 along N; the stage copies 4 (SPIR-V's widest vector) where N allows, and is not
    made where no copy would be wider than the pieces."""
    text = program.read_text()
    pipeline = driver.DEFAULT_PIPELINE.replace("ldsopt-matmul-lds,", "ldsopt-matmul-lds{output-lds=true tiles=64x64x8x2},")
    assert pipeline != driver.DEFAULT_PIPELINE
    run_program(text, "--target", "lavapipe", "--require-ldsopt", "--pipeline", pipeline,
                "--emit-dir", str(tmp_path / "emit"), *_tolerance(text), name=program.stem)
    kernel = (tmp_path / "emit" / "ldsopt.mlir").read_text()
    staged = re.search(r"ldsopt.output_stage = \{pad = \d+ : i64, vec = (\d) : i64\}", kernel)
    assert (staged is None) == (program.stem in UNSTAGED), kernel
    assert staged is None or int(staged.group(1)) <= 4


def test_gfx942_output_stage_stores_16_bytes(run_program, tmp_path):
    """gfx942, the default output stage: an MFMA 16x16 lane holds one element of a row, stored
    directly as 4-byte stores (16 a thread at 64 x 64); through LDS, 16-byte ones (4 a thread)."""
    stores = {}
    for stage in ("auto", "false"):
        emit = tmp_path / stage
        run_program((PROGRAMS / "nn_f16_96x160x64.mlir").read_text(), "--target", "gfx942", "--require-ldsopt",
                    "--pipeline", PINNED_64x64.replace("ldsopt-matmul-lds{", f"ldsopt-matmul-lds{{output-lds={stage} "),
                    "--emit-dir", str(emit))
        (asm,) = (emit / "executables").glob("*.rocmasm")
        stores[stage] = collections.Counter(re.findall(r"^\s*(buffer_store_\w+|global_store_\w+)", asm.read_text(), re.M))
        (kernel,) = isa.from_dump_dir(str(emit / "executables"))
        assert kernel.vgpr_spills == 0, kernel.summary()
    assert stores == {"auto": {"buffer_store_dwordx4": 4}, "false": {"buffer_store_dword": 16}}, stores


@pytest.mark.parametrize("program, mfma", [(I8 / "nn_i8_128x256x128.mlir", "v_mfma_i32_16x16x32_i8"),
                                            (I8 / "dequant_nt_i8_33x40x70.mlir", "v_mfma_i32_16x16x32_i8"),
                                            (I8 / "requant_nn_i8_37x45x71.mlir", "v_mfma_i32_16x16x32_i8"),
                                            (PROGRAMS / "nn_f16_96x160x64.mlir", "v_mfma_f32_16x16x16_f16"),
                                            (PROGRAMS / "nt_f32_96x160x64.mlir", "v_mfma_f32_16x16x4_f32"),
                                            (EPILOGUES / "bias_f16_96x160x64.mlir", "v_mfma_f32_16x16x16_f16"),
                                            (EPILOGUES / "bias_gelu_f32_64x96x48.mlir", "v_mfma_f32_16x16x4_f32"),
                                            (PROLOGUES / "dequant_b_i8_f16_7x72x1000.mlir", "v_mfma_f32_16x16x16_f16")],
                         ids=lambda x: getattr(x, "stem", x))
def test_gfx942_compiles_to_lds_staging_and_mfma(program, mfma, run_program, tmp_path):
    """gfx942: the operands go through LDS (ds writes and reads, barriers) and feed MFMAs.
    The tiling is pinned to 64x64 (4 waves): on gfx942's 304 CUs the plan gives these small
    products one-wave workgroups, which need no s_barrier."""
    out = run_program(program.read_text(), "--target", "gfx942", "--require-ldsopt",
                      "--pipeline", PINNED_64x64, "--emit-dir", str(tmp_path / "emit"))
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.lds_bytes > 0, kernel.summary()
    assert kernel.ds_count("ds_write") > 0 and kernel.ds_count("ds_read") > 0, kernel.summary()
    # After the prologue, and once per K step where there are several (K = 64 f16 or 128 i8 is
    # one step of 128 bytes: the plan's K step where it lets the in-thread transpose take B).
    assert kernel.barriers >= 1, kernel.summary()
    assert kernel.vgpr_spills == 0, kernel.summary()
    assert kernel.mfma > 0, kernel.summary()
    (asm,) = (tmp_path / "emit" / "executables").glob("*.rocmasm")
    assert mfma in asm.read_text()
    assert "COMPILED" in out


def test_gfx942_one_k_step_i8_has_no_spills(run_program, tmp_path):
    """i8 NT 97x33x17 on gfx942, the default pipeline: K = 17 is one K step (64 i8) of 1-byte
    reads (17-byte rows), each guarded past M, N or K, whose wave-uniform row offsets and masks
    sit in SGPRs. The kernel reads that tile once and reads none ahead (re-reading it for a step
    that does not exist doubled the guarded reads: 96 byte loads, 106 SGPRs, 57 spilled to VGPR
    lanes). No spills of either kind; as many byte loads and byte LDS stores as one tile of
    each operand takes (its staging's chunks per thread)."""
    out = run_program((I8 / "nt_i8_97x33x17.mlir").read_text(), "--target", "gfx942", "--require-ldsopt",
                      "--emit-dir", str(tmp_path / "emit"))
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.sgpr_spills == 0 and kernel.vgpr_spills == 0 and kernel.mfma > 0, kernel.summary()
    staged = re.findall(r"threads = (\d+) : i64, tile = \[(\d+), (\d+)\], vector = 1 : i64",
                        (tmp_path / "emit" / "ldsopt.mlir").read_text())
    assert len(staged) == 2, staged  # both operands in 1-byte reads
    one_tile = sum(int(rows) * int(cols) // int(threads) for threads, rows, cols in staged)
    assert kernel.global_ops.get("buffer_load_ubyte") == kernel.ds_count("ds_write_b8") == one_tile, \
        (kernel.summary(), kernel.global_ops, staged)
    assert "COMPILED" in out


@pytest.mark.parametrize("name", ["nn_i8_128x256x128", "dequant_nt_i8_33x40x70"])
def test_cuda_compiles_i8_to_mma_sync(name, tmp_path):
    """sm_89 PTX of the default pipeline: the i8 products are mma.sync m16n8k32 s8 with s32
    accumulators (nvgpu.mma.sync's lowering adds .satfinite), and the PTX declares no local
    memory (no register tile left in memory; ptxas' own spills show on the device only).
    Running it needs the H200 (`lds-run FILE --target cuda --prepare DIR`, then
    `python -m ldsopt.run.replay DIR` there)."""
    configured = driver.configure((I8 / f"{name}.mlir").read_text(), target.known("cuda"), str(tmp_path))
    lowered, report = driver.apply_ldsopt(configured, driver.DEFAULT_PIPELINE)
    assert "ldsopt-matmul-lds" in str(report), report
    driver.compile_module(lowered, str(tmp_path), "i8", dump=True)
    (ptx,) = (tmp_path / "executables").glob("*.ptx")
    text = ptx.read_text()
    assert text.count("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32") > 0, text[:2000]
    assert "mma.sync.aligned.m16n8k16" not in text and ".local" not in text, text[:2000]


def test_gelu_epilogue_uses_the_hardware_exp2(tmp_path):
    """GELU by erf in a matmul's epilogue (ldsopt/codegen/fast_math.py's product form): its 2^x is
    ex2.approx.ftz in CUDA's PTX (IREE would expand math.exp2 into exp's polynomial, with a
    `cvt.rmi` floor) and no division; v_exp_f32 on gfx942 without the subnormal scaling (no
    v_ldexp_f32) and no reciprocal."""
    program = (EPILOGUES / "bias_gelu_f32_64x96x48.mlir").read_text()
    for name in ("cuda", "gfx942"):
        (tmp_path / name).mkdir()
        configured = driver.configure(program, target.known(name), str(tmp_path / name))
        lowered, report = driver.apply_ldsopt(configured, driver.DEFAULT_PIPELINE)
        assert "ldsopt-matmul-lds" in str(report), report
        driver.compile_module(lowered, str(tmp_path / name), "gelu", dump=True)
    (ptx,) = (tmp_path / "cuda" / "executables").glob("*.ptx")
    text = ptx.read_text()
    assert text.count("ex2.approx.ftz.f32") > 0 and "cvt.rmi" not in text and "div." not in text, text[:2000]
    (asm,) = (tmp_path / "gfx942" / "executables").glob("*.rocmasm")
    text = asm.read_text()
    assert "v_exp_f32" in text and "v_ldexp_f32" not in text and "v_rcp_f32" not in text, text[:2000]


# Products of more tiles than lavapipe's 4 compute units (as the target states them): tails on
# M, N and K, every storage order, a loaded init, a bias, a residual read through a slice,
# and a generated one (M and K prime) with an f16 output through the output stage.
WALKS = [(PROGRAMS / "nn_f32_257x129x65_acc.mlir", ""), (PROGRAMS / "tn_f32_257x129x65.mlir", ""),
         (PROGRAMS / "nt_f32_160x192x40.mlir", ""), (PROGRAMS / "tt_bf16_96x160x64.mlir", ""),
         (EPILOGUES / "bias_f16_96x160x64.mlir", ""), (EPILOGUES / "nn_f16_residual_slice_130x128x72.mlir", ""),
         ("nt_f16_bias_residual_197x136x67", " output-lds=true tiles=64x64x8x2")]


@pytest.mark.parametrize("program, options", WALKS, ids=lambda x: getattr(x, "stem", x) or "plan")
def test_walk_lavapipe(program, options, run_program, tmp_path):
    """persistent=true (ldsopt/matmul/persistent.py) on lavapipe's FMA kernels: 4 workgroups
    walk the tiles, the register reads of a tile's last K step fetching the next tile's first,
    each tile stored at its own origin (through the output stage where one is made); values
    checked against the reference."""
    text = program.read_text() if isinstance(program, pathlib.Path) else \
        cases._matmul_epilogue(0, 197, 136, 67, "nk", "bias_residual").mlir
    pipeline = driver.DEFAULT_PIPELINE.replace("ldsopt-matmul-lds,", f"ldsopt-matmul-lds{{persistent=true{options}}},")
    run_program(text, "--target", "lavapipe", "--require-ldsopt", "--pipeline", pipeline,
                "--emit-dir", str(tmp_path / "emit"), *_tolerance(text), name="walk")
    kernel = (tmp_path / "emit" / "ldsopt.mlir").read_text()
    assert "persistent_refused" not in kernel and re.search(r"gpu.block_id x upper_bound 4\b", kernel), kernel
    assert ("ldsopt.output_stage" in kernel) == ("output-lds=true" in options)


@pytest.mark.parametrize("name", sorted(p.stem for p in F16_OUT.glob("*.mlir")))
def test_16_bit_result_lavapipe(name, run_program):
    """f16 x f16 -> f16 and bf16 x bf16 -> bf16 products (a batch, a loaded init, a fused bias)
    are taken, accumulated in f32 and rounded once to the result's type."""
    out = run_program((F16_OUT / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt", name=name)
    assert re.search(r"ldsopt: (ldsopt-inthread-transpose, )?ldsopt-matmul-lds$", out, re.M), out


def test_16_bit_result_gfx942_mfma(run_program, tmp_path):
    """The f16 -> f16 batch matmul on gfx942: MFMAs accumulating in f32, no spills."""
    out = run_program((F16_OUT / "bmm_f16_out.mlir").read_text(), "--target", "gfx942", "--require-ldsopt",
                      "--emit-dir", str(tmp_path / "emit"))
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.mfma > 0 and kernel.vgpr_spills == 0, kernel.summary()
    assert "COMPILED" in out


# The storage order of A and B, as ldsopt.measure.cases._matmul names them.
STORED = {"nn": ("mk", "kn"), "tn": ("km", "kn"), "nt": ("mk", "nk")}


def _loops(asm: str) -> list[list[str]]:
    """The instructions of each loop of a kernel's ISA: from a label to a later branch back to it."""
    lines = [x.strip() for x in asm.splitlines()]
    at = {x[:-1]: i for i, x in enumerate(lines) if re.fullmatch(r"\.LBB\w+:", x)}
    loops = []
    for i, x in enumerate(lines):
        back = re.match(r"s_cbranch_\w+\s+(\.LBB\w+)", x)
        if back and back.group(1) in at and at[back.group(1)] < i:
            loops.append([y.split()[0] for y in lines[at[back.group(1)] + 1:i] if y and not y.startswith((".", ";"))])
    return loops


@pytest.mark.parametrize("form, elem", [("nn", "f16"), ("tn", "f16"), ("nt", "f16"), ("nn", "i8"), ("tn", "i8"),
                                        ("nt", "i8")])
def test_gfx942_main_loop(form, elem, run_program, tmp_path):
    """gfx942, the default pipeline, 4096^3 in each storage order (issue 36's ISA checks; the
    smaller products plan one-wave workgroups, which need no barrier): every LDS read at least
    64 bits wide, so both operands' fragments are read whole (a K-strided operand transposed
    in registers by ldsopt-inthread-transpose); no spills; and a pipelined K loop: one loop
    whose body issues the next tile's global loads beside its LDS reads, its MFMAs and its
    barrier."""
    run_program(cases._matmul(4096, 4096, 4096, elem, *STORED[form]).mlir, "--target", "gfx942", "--require-ldsopt",
                "--emit-dir", str(tmp_path / "emit"), name=f"{form}_{elem}")
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.vgpr_spills == 0 and kernel.sgpr_spills == 0 and kernel.scratch_bytes == 0, kernel.summary()
    reads = {op: c for op, c in kernel.ds_ops.items() if op.startswith("ds_read")}
    assert reads and all(re.search(r"b64|b128", op) for op in reads), reads
    (asm,) = (tmp_path / "emit" / "executables").glob("*.rocmasm")
    loops = _loops(asm.read_text())
    pipelined = [body for body in loops
                 if any(op.startswith("v_mfma") for op in body) and "s_barrier" in body
                 and any(op.startswith("ds_read") for op in body)
                 and any(op.startswith(("buffer_load", "global_load")) for op in body)]
    assert len(pipelined) == 1, [collections.Counter(b).most_common(8) for b in loops]
