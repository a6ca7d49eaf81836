"""ldsopt-attention on attention of a dynamic sequence (programs/attention_dynamic, `lds-run
--keep-dynamic`): each program compiled once with its query rows and/or keys dynamic and run on
lavapipe at lengths that take each bound of the kernel: 1, a few, a prime past a tile, whole
tiles (FMA: 16 rows, 16 keys a tile), rows and keys of different lengths; f16 and f32; a float
mask of a dynamic row count, a causal region, V held keys innermost (the BERT twin's form, f32
and f16: the FMA kernel, also on CUDA) and decode against a cache of run-time length (ldsopt-split-attention leaves it unsplit). Values are
checked by lds-run against its reference. The suite's BERT, GPT-2 and Llama twins exported by
iree-turbine with a dynamic sequence run on lavapipe too, every dispatch ldsopt's: IREE 3.13
cannot compile their attention for Vulkan, ldsopt's kernel takes it; so does transformers' BERT with `sdpa` attention
exported likewise. The f16 program of both extents dynamic is
compiled for CUDA (sm_89's mma.sync, sm_90a's wgmma) and gfx942 (MFMA), where it is not run.
"""

from __future__ import annotations

import pathlib
import re

import pytest

from ldsopt.measure import isa

PROGRAMS = pathlib.Path(__file__).parent / "programs" / "attention_dynamic"


def shapes(*specs: str | None) -> tuple[str, ...]:
    """--input-shape of each argument given (None: a static one)."""
    return tuple(a for i, s in enumerate(specs) if s for a in ("--input-shape", f"{i}={s}"))


# (id, program, lds-run arguments)
CASES = [
    *((f"rows_keys_{m}x{k}", "rows_keys_f16_2x3xMxK2x64.mlir", shapes(f"2x3x{m}x64", f"2x3x{k}x64", f"2x3x{k}x64"))
      for m, k in ((1, 1), (5, 37), (37, 5), (131, 64), (64, 131))),
    *((f"keys_decode_{k}", "keys_decode_f16_1x2x1xK2x128.mlir", shapes(None, f"1x2x{k}x128", f"1x2x{k}x128"))
      for k in (1, 37, 1000)),
    *((f"causal_{s}", "causal_f32_1x2xSx32.mlir", shapes(f"1x2x{s}x32", f"1x2x{s}x32", f"1x2x{s}x32"))
      for s in (1, 5, 64, 131)),
    *((f"mask_rows_{m}", "mask_rows_f32_1x2xMx60x80.mlir", shapes(f"1x2x{m}x80", None, None, f"{m}x60"))
      for m in (1, 37, 131)),
    *((f"vt_keys_{s}", "vt_keys_f32_2xSx16.mlir", shapes(f"2x{s}x16", f"2x{s}x16", f"2x16x{s}"))
      for s in (1, 5, 37, 131)),
    *((f"vt_keys_f16_{s}", "vt_keys_f16_2xSx64.mlir", shapes(f"2x{s}x64", f"2x{s}x64", f"2x64x{s}"))
      for s in (1, 37, 131)),
]


@pytest.fixture(scope="module")
def results(start_runs):
    return start_runs("test_dynamic_on_lavapipe", {
        cid: (PROGRAMS / prog, None, ("--target", "lavapipe", "--keep-dynamic", "--require-ldsopt", *args))
        for cid, prog, args in CASES})


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_dynamic_on_lavapipe(case, results):
    cid, prog, args = case
    rc, report = results[cid].result()
    lines = report.strip().splitlines()
    assert rc == 0 and lines and lines[-1].startswith("PASS"), report
    run_at = next(x for x in lines if x.startswith("module: compiled with its dims dynamic, run at "))
    at = run_at.split(" run at ", 1)[1].split(", ")
    assert all(a.split("=", 1)[1] in at for a, flag in zip(args[1:], args) if flag == "--input-shape"), report
    assert re.search(r"attention\S*: ldsopt: ldsopt-attention", report), report
    assert "ldsopt lowered 1 of 1 dispatches" in report, report  # decode: not split


@pytest.mark.parametrize("target_name, product", [("cuda", "mma.sync.aligned.m16n8k16"),
                                                  ("cuda-sm90a", "wgmma.mma_async.sync.aligned")])
def test_compiles_for_cuda(target_name, product, ptx_of, tmp_path):
    """Both extents dynamic through IREE to PTX: ldsopt-attention's kernel on the target's matrix
    cores, K and V copied by cp.async, no local memory."""
    text, report = ptx_of((PROGRAMS / "rows_keys_f16_2x3xMxK2x64.mlir").read_text(), target_name, tmp_path)
    assert [r["passes"] for r in report] == [["ldsopt-attention"]], report
    assert product in text and "cp.async" in text and ".local" not in text, text[:3000]


def test_compiles_for_gfx942(lds_run, tmp_path):
    """Both extents dynamic for gfx942: the MFMA kernel, no spills."""
    proc = lds_run(str(PROGRAMS / "rows_keys_f16_2x3xMxK2x64.mlir"), "--target", "gfx942", "--keep-dynamic",
                   "--require-ldsopt", *shapes("2x3x37x64", "2x3x45x64", "2x3x45x64"),
                   "--emit-dir", str(tmp_path / "emit"))
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "COMPILED" in proc.stdout, out
    (kernel,) = isa.from_dump_dir(str(tmp_path / "emit" / "executables"))
    assert kernel.mfma > 0 and kernel.vgpr_spills == 0 and kernel.sgpr_spills == 0, kernel.summary()


def test_vt_of_dynamic_keys_takes_the_fma_kernel_on_cuda(ptx_of, tmp_path):
    """V held keys innermost of a dynamic key count, f16, for CUDA: the FMA kernel (mma.sync's
    16-byte copies along V^T's rows would need them aligned; IREE 3.13 cannot compile it at
    all), no local memory."""
    text, report = ptx_of((PROGRAMS / "vt_keys_f16_2xSx64.mlir").read_text(), "cuda", tmp_path)
    assert [r["passes"] for r in report] == [["ldsopt-attention"]], report
    assert "mma.sync" not in text and ".local" not in text, text[:3000]


# The suite's twins exported with a dynamic sequence (up to 16 tokens: Llama's RoPE tables are
# as long as the export's sequence).
TWINS = ("encoder_layer", "gpt2_block", "llama_block")


def run_export(folder, shape: str, lds_run, target: str = "lavapipe", *args: str) -> str:
    """lds-run of an export in `folder` (iree-turbine's model.mlir and model.irpa) compiled once
    with its sequence dynamic, its input of `shape`; its output, checked to PASS (or, prepared
    for a GPU that is not here, to be PREPARED)."""
    proc = lds_run(str(folder / "export" / "model.mlir"), "--target", target, "--keep-dynamic",
                   "--parameters", f"model={folder / 'parameters' / 'model.irpa'}", "--input-shape", f"0={shape}", *args)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith(("PASS", "PREPARED")), out
    return out


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    """{kind: export folder} of the suite's small twins, the sequence dim dynamic (2 to 16)."""
    torch = pytest.importorskip("torch", reason="the torch extra is not installed (pip install -e '.[torch]')")
    pytest.importorskip("iree.turbine", reason="the torch extra is not installed")
    import ldsopt.torch as lt
    from ldsopt.models import suite, torch_twins

    size, out = suite.SIZES["small"], {}
    for kind in TWINS:
        folder = tmp_path_factory.mktemp(kind)
        torch.manual_seed(0)
        lt.export(torch_twins.of_model(getattr(suite, kind)(size, "f32")), (torch.randn(1, size.seq, size.hidden),),
                  str(folder), dynamic_shapes={"x": {1: torch.export.Dim("seq", min=2, max=size.seq)}})
        out[kind] = folder
    return out


@pytest.mark.parametrize("kind", TWINS)
def test_twin_of_a_dynamic_sequence_runs_on_lavapipe(kind, twins, lds_run):
    """Compiled once with the sequence dynamic, run at 2, 13 and 16 (the export's) tokens: the
    attention is ldsopt-attention's (Llama's causal and grouped-query), every dispatch is
    ldsopt's, and values PASS."""
    for length in (2, 13, 16):
        out = run_export(twins[kind], f"1x{length}x32", lds_run)
        assert re.search(r"attention_\S+: ldsopt: ldsopt-attention", out), out
        assert not re.search(r"^dispatch \S+: iree-default", out, re.M), out


def test_llama_twin_of_a_dynamic_sequence_compiles_for_cuda(twins, lds_run, tmp_path):
    """The Llama twin (RoPE's tables sliced to the sequence, causal grouped-query SDPA) for cuda:
    the program pipeline's barrier over RoPE's result carries the sequence's extent
    (ldsopt-pin-attention-reshapes), RoPE's rotate_half is folded into the projections
    (ldsopt-fold-rotate-half), Q, K, V and their rotations are one projection
    (ldsopt-fuse-projections: 32 + 16 + 16 + 32 + 16 columns), and every dispatch is ldsopt's:
    the projections, matmuls of a dynamic M, and the attention."""
    out = run_export(twins["llama_block"], "1x13x32", lds_run, "cuda", "--require-ldsopt", "--prepare",
                     str(tmp_path / "prepared"))
    assert re.search(r"batch_matmul_1xDx112x32_f32: ldsopt: ldsopt-matmul-lds$", out, re.M), out
    assert re.search(r"attention_\S+: ldsopt: ldsopt-attention$", out, re.M), out


def test_transformers_bert_sdpa_of_a_dynamic_sequence_runs_on_lavapipe(tmp_path, lds_run):
    """transformers' BERT with `sdpa` attention (one layer, width 32, random weights, no download)
    exported with its sequence dynamic, compiled once and run at 11 and 5 tokens: its attention
    is ldsopt-attention's, every dispatch is ldsopt's, and values PASS. (With an attention mask IREE's torch input pipeline
    fails first: test_torch.py's BOOL_LITERAL.)"""
    torch = pytest.importorskip("torch", reason="the torch extra is not installed (pip install -e '.[torch]')")
    transformers = pytest.importorskip("transformers", reason="the torch extra is not installed")
    pytest.importorskip("iree.turbine", reason="the torch extra is not installed")
    import ldsopt.torch as lt

    torch.manual_seed(0)
    model = transformers.BertModel(transformers.BertConfig(
        vocab_size=61, hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=48,
        max_position_embeddings=32, attn_implementation="sdpa"))
    lt.export(model, (torch.randint(0, 61, (1, 11)),), str(tmp_path),
              dynamic_shapes={"input_ids": {1: torch.export.Dim("s", max=32)}})
    for length in (11, 5):
        out = run_export(tmp_path, f"1x{length}", lds_run, "lavapipe", "--require-ldsopt")
        assert re.search(r"attention_2xDx16x16xD: ldsopt: ldsopt-attention", out), out
