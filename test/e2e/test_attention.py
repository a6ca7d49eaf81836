"""ldsopt-attention end to end: each program in programs/attention (each a form the pass takes:
[B, H, S, D] and [B, S, H, D] activations, grouped-query attention, a loaded scale, float and
i1 masks broadcast over batch or heads, a causal and a soft-capping score region, rows masked
entirely, decode shapes of 1 and 7 query rows against 4096 keys, one row against key tiles that
the kernel's thread groups do not divide; head dims 32, 64, 80, 128 (and V of
another head dim than Q and K),
batch 3, query and key counts that are no multiple of the tiles; f16, bf16, f32; the forms of
PyTorch exports: Q, K and V slices of one packed tensor, masks computed in the dispatch from an
input or from indices, V held keys innermost, the output transposed) is compiled
through IREE with its attention lowered by ldsopt (IREE's own pipeline cannot compile attention
for Vulkan), run on lavapipe and checked against the reference (numpy's evaluation of the
attention op, or IREE's llvm-cpu where numpy does not evaluate the program)."""

import pathlib
import re

import numpy as np
import pytest

from ldsopt import target
from ldsopt.measure import isa
from ldsopt.run import driver

PROGRAMS = pathlib.Path(__file__).parent / "programs" / "attention"


@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.mlir")))
def test_lavapipe(name, run_program):
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt", name=name)
    assert "ldsopt: ldsopt-attention" in out, out


# Decode programs: ldsopt-split-attention splits their keys (two dispatches, both ldsopt's).
SPLIT = ["decode1_f16_1x2x1x4096x128", "decode7_f16_1x4x7x4096x64", "decode_mask_f16_1x3x2x4096x64"]


@pytest.mark.parametrize("name", SPLIT)
def test_split_kv_two_dispatches(name, run_program, tmp_path):
    """Split-KV: the partial attentions and their combine, both lowered by ldsopt-attention, the
    values those of the unsplit program. The masked program's row 0 keeps only its last 96 keys
    (the chunks before them masked whole: their partials weigh nothing) and row 1 none (NaN, as
    unsplit); the others' inputs are random."""
    args = []
    if "mask" in name:
        mask = np.zeros((2, 4096), np.float32)
        mask[0, :4000] = -np.inf
        mask[1, :] = -np.inf
        np.save(tmp_path / "mask.npy", mask)
        args = ["--input", f"3=@{tmp_path / 'mask.npy'}"]
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "lavapipe", "--require-ldsopt", *args,
                      name=name)
    assert "ldsopt lowered 2 of 2 dispatches" in out, out


# Programs the matrix-core kernels take (more than 16 query rows, f16/bf16, head dims of
# multiples of 32 up to 128).
MATRIX_CORE = ["plain_f16_2x3x80x100x64", "causal_f16_1x2x100x100x64", "gqa_f16_1x8x33x70x128", "vdim_f16_2x2x40x50x64x80",
               "mask_i1_bf16_2x2x24x41x64", "packed_bool_f16_1x3x37x37x32"]


@pytest.mark.parametrize("name", MATRIX_CORE)
def test_gfx942_mfma_and_inthread_transpose(name, run_program, tmp_path):
    """gfx942 (compiled, not run: no MI300 here): both products are MFMAs, V is transposed in
    registers (v_perm_b32) into K-contiguous LDS rows, whose fragment reads are ds_read_b128;
    no spills."""
    out = run_program((PROGRAMS / f"{name}.mlir").read_text(), "--target", "gfx942", "--require-ldsopt",
                      "--emit-dir", str(tmp_path / "emit"), name=name)
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.mfma > 0 and kernel.vgpr_spills == 0 and kernel.sgpr_spills == 0, kernel.summary()
    assert kernel.ds_count("ds_read_b128") > 0 and kernel.v_perm > 0, kernel.summary()
    assert "COMPILED" in out


def _attention_ptx(name: str, target_name: str, tmp_path) -> str:
    """The PTX of program `name`, formed as lds-run forms it for `target_name`, its one dispatch
    ldsopt-attention's."""
    _, lowered, report = driver.form_dispatches((PROGRAMS / f"{name}.mlir").read_text(), target.known(target_name),
                                                str(tmp_path), driver.DEFAULT_PIPELINE)
    assert [d["passes"] for d in report] == [["ldsopt-attention"]], report
    driver.compile_module(lowered, str(tmp_path), name, dump=True)
    (ptx,) = (tmp_path / "executables").glob("*.ptx")
    return ptx.read_text()


@pytest.mark.parametrize("name", MATRIX_CORE + ["vt_f16_1x2x37x48x64",  # V^T: mma.sync reads it plainly
                                                 "causal_mask_f16_1x2x300x300x64"])
def test_cuda_mma_sync_ptx(name, tmp_path):
    """sm_89 PTX, the dispatches formed as lds-run forms them (run on the H200 by `lds-run FILE --target
    cuda --prepare DIR` and `python -m ldsopt.run.replay DIR` there): mma.sync m16n8k16 for both products,
    K's fragments by ldmatrix and V's by ldmatrix.trans, two a load (x4), K and V by cp.async, 2^x by
    ex2.approx, O's rescale behind a warp vote; no local memory. V held keys innermost (vt_): its
    fragments by plain ldmatrix.x2, no .trans."""
    text = _attention_ptx(name, "cuda", tmp_path)
    vt = name.startswith("vt_")
    v_read = r"ldmatrix\.sync\.aligned\.m8n8\.x2\.shared" if vt else r"ldmatrix\.sync\.aligned\.m8n8\.x4\.trans"
    for pattern in (r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.(f16|bf16)", r"ldmatrix\.sync\.aligned\.m8n8\.x4\.shared",
                    v_read, r"cp\.async\.cg\.shared\.global", r"ex2\.approx", r"vote\.sync\.any\.pred"):
        assert re.search(pattern, text), pattern
    if vt:
        assert "trans" not in text
    assert ".local" not in text


# Programs sm_90a's wgmma kernel takes (f16, bf16; head and value dims 64 or 128; V's value dim
# innermost; more than 16 query rows), with their wgmmas: S's (head dim / 16 a key tile) and P
# V's (128 keys / 16), each of `n` columns.
WGMMA = {"plain_f16_2x3x80x100x64": (4, 128, 8, 64), "causal_f16_1x2x100x100x64": (4, 128, 8, 64),
         "gqa_f16_1x8x33x70x128": (8, 128, 8, 128), "mask_i1_bf16_2x2x24x41x64": (4, 128, 8, 64),
         "causal_bf16_1x3x130x130x128": (8, 128, 8, 128), "causal_f16_1x2x300x300x64": (4, 128, 8, 64),
         "plain_bf16_2x2x200x390x64": (4, 128, 8, 64), "causal_mask_f16_1x2x300x300x64": (4, 128, 8, 64),
         "softcap_causal_mask_f16_1x2x200x200x64": (4, 128, 8, 64)}


def test_cuda_sm90a_float_mask_keeps_mma_sync(tmp_path):
    """A float mask loaded tile by tile keeps the mma.sync kernel on sm_90a (wgmma measured 18%
    slower on GPT-2's, bench/results/cuda-attention/masked-b190a63/); a boolean one takes wgmma
    (WGMMA above)."""
    name = "mask_f16_1x2x50x60x64"
    text = _attention_ptx(name, "cuda-sm90a", tmp_path)
    assert ".target sm_90a" in text and "mma.sync.aligned.m16n8k16" in text and "wgmma" not in text


@pytest.mark.parametrize("name", sorted(WGMMA))
def test_cuda_sm90a_wgmma_ptx(name, tmp_path):
    """sm_90a PTX (values: `lds-run FILE --target cuda-sm90a --prepare DIR`, replayed on the
    H200): S by wgmma with both operands by descriptor (K-major: no transpose), P V by wgmma with
    A from registers and V read transposed; the copies fenced into the async proxy; no
    mma.sync, no local memory. The wgmmas come in whole tiles' worth (a causal loop has a branch
    with the region and one without, whose products LLVM may keep apart or merge)."""
    text = _attention_ptx(name, "cuda-sm90a", tmp_path)
    s_count, s_n, pv_count, pv_n = WGMMA[name]
    elem = "bf16" if "bf16" in name else "f16"
    s = re.findall(rf"wgmma\.mma_async\.sync\.aligned\.m64n{s_n}k16\.f32\.{elem}\.{elem} {{[^}}]*}}, %rd\d+, %rd\d+, p, 1,  1, 0,  0;", text)
    pv = re.findall(rf"wgmma\.mma_async\.sync\.aligned\.m64n{pv_n}k16\.f32\.{elem}\.{elem} {{[^}}]*}}, {{%r\d+, %r\d+, %r\d+, %r\d+}}, %rd\d+, p, 1, 1, 1;", text)
    assert s and pv and len(s) % s_count == 0 and len(pv) % pv_count == 0, (len(s), len(pv))
    for op in (".target sm_90a", "wgmma.fence.sync.aligned", "wgmma.commit_group.sync.aligned",
               "wgmma.wait_group.sync.aligned \t0", "fence.proxy.async.shared::cta", "cp.async.cg.shared.global",
               "ex2.approx", "vote.sync.any.pred"):
        assert op in text, op
    assert ".local" not in text and "mma.sync" not in text
