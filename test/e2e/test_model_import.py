"""Models in (ldsopt/run/model_import.py, models/suite.py): ONNX files and torch-dialect MLIR run
through lds-run on lavapipe against llvm-cpu, as a user would give them."""

import subprocess
import sys

import pytest

onnx = pytest.importorskip("onnx")

from ldsopt.run import model_import, pipelines  # noqa: E402

def _passes(proc):
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and proc.stdout.strip().splitlines()[-1].startswith("PASS"), out
    assert "Traceback" not in out, out
    return out


@pytest.mark.parametrize("model", ["mlp_classifier", "encoder_layer_small_f32", "decoder_block_small_f32",
                                   "gpt2_block_small_f32", "llama_block_small_f32", "resnet_cnn_small_f32"])
def test_suite_model_runs(models, model, lds_run):
    lines = _passes(lds_run(str(models / f"{model}.onnx"), "--target", "lavapipe")).splitlines()
    dispatches = [i for i, line in enumerate(lines) if line.startswith("dispatch ")]
    assert len(dispatches) >= 3, lines  # a whole model, not one op
    # Under each dispatch left to IREE, each ldsopt pass's reason; then the coverage line.
    for i in dispatches:
        if ": iree-default (" in lines[i]:
            assert lines[i + 1].startswith("  ldsopt-"), lines[i:i + 2]
    lowered = sum(": ldsopt: " in lines[i] for i in dispatches)
    assert f"ldsopt lowered {lowered} of {len(dispatches)} dispatches" in lines
    if model.startswith("resnet_cnn_small"):
        _cnn_dispatches(lines)
        return
    if model != "mlp_classifier":
        # The attention chain (Q K^T, scale, mask, softmax, P V, the head transposes) is raised
        # to one attention op (ldsopt-raise-attention), one dispatch of ldsopt-attention.
        attention = [lines[i] for i in dispatches if "_attention_" in lines[i]]
        assert len(attention) == 1 and attention[0].endswith(": ldsopt: ldsopt-attention"), lines
    if model == "llama_block_small_f32":
        # Grouped-query attention (4 query heads over 2 K/V heads) raised with K and V read
        # unrepeated; RoPE's rotate_half a projection by rotated weights (ldsopt-fold-rotate-half),
        # fused with Q, K and V (N = 32 + 16 + 16 + 32 + 16), RoPE itself elementwise.
        assert [line for line in lines if "_attention_2x2x16x8x8x16: ldsopt: ldsopt-attention" in line], lines
        assert [line for line in lines if "_batch_matmul_1x16x112x32_f32: ldsopt:" in line], lines
        # Q's split into (K/V head, repeat) stays on RoPE's result (ldsopt-pin-attention-reshapes): IREE
        # copies none of the projection's slices, and every dispatch is ldsopt's.
        assert lowered == len(dispatches) and not [line for line in lines if "memcpy" in line], lines
        return
    if model != "mlp_classifier":
        assert lowered == len(dispatches), lines
        # Q, K and V (width 32) are one matmul (ldsopt-fuse-projections; GPT-2's own, Split),
        # its slices read in place by the attention: no copy, no cast or bias dispatch of their own.
        qkv = [lines[i] for i in dispatches if "_batch_matmul_1x16x96x32_" in lines[i]]
        assert len(qkv) == 1 and not [lines[i] for i in dispatches if "memcpy" in lines[i]], lines
    # QKV, attention, O, norms (one dispatch: the encoder's two fused, GPT-2's two one
    # executable run twice), FFN up and down
    expected = {"encoder_layer_small_f32": 6, "gpt2_block_small_f32": 6}
    assert len(dispatches) == expected.get(model, len(dispatches)), lines


def _cnn_dispatches(lines: list[str]) -> None:
    """The small CNN's dispatches (NCHW as IREE imports it). The stem (7x7 stride 2), the
    block's 1x1s and its 3x3 stride-2 convolution, each with its BatchNorm and ReLU, and the
    shortcut's 1x1 stride-2 one (its image a strided slice) are implicit GEMMs; the max pool a
    window reduction; global average pooling with the residual add and both BatchNorms (a
    reduction; in f16 their parameters extended to f32 by generics of their own) and the
    classifier are ldsopt's too. Every padding (the stem's, the max pool's -inf, the 3x3's)
    is fused into its consumer's dispatch and read there: no copy into a padded buffer."""
    assert "ldsopt lowered 8 of 8 dispatches" in lines, lines
    for name, by in (("_conv_2x13x15x15x3x7x7_f", "matmul-lds"), ("_conv_2x13x8x8x3x3_f", "window-reduce"),
                     ("_matmul_like_2x11x64x13_f", "matmul-lds"), ("_conv_2x11x4x4x11x3x3_f", "matmul-lds"),
                     ("_matmul_like_2x24x4x4x13_f", "matmul-lds"), ("_matmul_like_2x24x16x11_f", "matmul-lds"),
                     ("_reduction_2x24x16_f", "vector-distribute"), ("_matmul_2x10x24_f", "matmul-lds")):
        # The kernel's pass last; a staging pass may come before it (ldsopt-inthread-transpose
        # restages the shortcut's strided NCHW image on lavapipe).
        assert [line for line in lines if name in line and ": ldsopt: " in line and line.endswith(f"ldsopt-{by}")], \
            (name, lines)
    assert not [line for line in lines if "memcpy" in line], lines


def test_resnet_cnn_f16(suite, tmp_path, lds_run):
    """The small CNN in f16: the same dispatches ldsopt's as in f32."""
    path = tmp_path / "resnet_cnn_small_f16.onnx"
    onnx.save(suite.resnet_cnn(suite.CNN_SIZES["small"], "f16"), str(path))
    _cnn_dispatches(_passes(lds_run(str(path), "--target", "lavapipe")).splitlines())


def test_llama_block_heads_without_groups(suite, tmp_path, lds_run):
    """The Llama block with as many K/V heads as query heads (f16): RoPE elementwise on the
    fused projection's slices, read in place, and every dispatch ldsopt's."""
    import dataclasses
    path = tmp_path / "llama_mha_f16.onnx"
    onnx.save(suite.llama_block(dataclasses.replace(suite.SIZES["small"], gqa=(4, 4)), "f16"), str(path))
    lines = _passes(lds_run(str(path), "--target", "lavapipe", "--require-ldsopt")).splitlines()
    assert [line for line in lines if "_batch_matmul_1x16x160x32_f16xf16xf32: ldsopt:" in line], lines
    assert not [line for line in lines if "memcpy" in line], lines


@pytest.mark.parametrize("model", ["encoder_layer_small_f32", "gpt2_block_small_f32"])
def test_weights_to_archive(models, model, lds_run):
    """--weights-to-archive: the model's weights as parameters of an archive, as a PyTorch
    export's are; the weights that ldsopt-fuse-projections joins are joined once, at load, by
    the initializers' dispatches, and each call runs the same dispatches, every one ldsopt's."""
    lines = _passes(lds_run(str(models / f"{model}.onnx"), "--target", "lavapipe", "--weights-to-archive",
                            "--require-ldsopt")).splitlines()
    calls = [line for line in lines if line.startswith("dispatch ") and not line.endswith("(once, at load)")]
    assert all(": ldsopt: " in line for line in calls), lines
    # The encoder's Q, K and V weights are joined at load; GPT-2's QKV weight is one already.
    coverage = {"encoder_layer_small_f32": "ldsopt lowered 6 of 6 dispatches of each call; 3 more run once, at load",
                "gpt2_block_small_f32": "ldsopt lowered 6 of 6 dispatches"}[model]
    assert coverage in lines, lines


def test_causal_mask_stays_out_of_the_archive(suite, tmp_path, lds_run):
    """The GPT-2 block at sequence 40 (a 1600-element causal mask of -1e4, past the archive's
    threshold): the mask stays an inline constant (two values: structure, not a weight), which
    ldsopt-raise-attention reads as causal, and the block still PASSes with every dispatch ldsopt's;
    the weights are parameters."""
    import dataclasses
    path = tmp_path / "gpt2_seq40_f16.onnx"
    model = suite.gpt2_block(dataclasses.replace(suite.SIZES["small"], seq=40), "f16")
    onnx.save(model, str(path))
    masks = model_import._structure(model)
    assert [a.shape for a in masks.values()] == [(40, 40)], masks.keys()
    text = model_import.import_onnx(str(path), str(tmp_path / "weights.irpa"))
    assert "tensor<40x40xf16>" not in "".join(line for line in text.splitlines() if "util.global" in line)
    assert '#stream.parameter.named<"model"::"attn.qkv.weight">' in text
    _passes(lds_run(str(path), "--target", "lavapipe", "--weights-to-archive", "--require-ldsopt"))


def test_stacked_layers_keep_their_causal_masks(suite, tmp_path, lds_run):
    """Two GPT-2 layers in one call (lds-bench's `--stack`): each attention's causal mask is
    computed in its own dispatch; none is hoisted into a global that a dispatch would load
    (IREE hoists a mask generator that several attentions share)."""
    import dataclasses

    from ldsopt.measure import bench
    from ldsopt.run import driver
    path = tmp_path / "gpt2_seq40_f16.onnx"
    onnx.save(suite.gpt2_block(dataclasses.replace(suite.SIZES["small"], seq=40), "f16"), str(path))
    text, archive = driver.read_to_archive(str(path), str(tmp_path / "parameters"))
    stack, function = bench.stacked(text, 2, str(path))
    (tmp_path / "stack.mlir").write_text(stack)
    lines = _passes(lds_run(str(tmp_path / "stack.mlir"), "--function", function, "--target", "lavapipe",
                            "--parameters", f"model={archive.path}", "--require-ldsopt")).splitlines()
    assert not [line for line in lines if "at load" in line], lines


def test_f16_encoder_attention_is_one_dispatch(suite, tmp_path, lds_run):
    """The f16 encoder layer: its graph rounds the scores and probabilities to f16 between the
    steps (casts around the softmax); ldsopt-raise-attention reads through them, and the
    attention is one ldsopt-attention dispatch (scores and softmax in f32)."""
    suite.main([str(tmp_path), "--dtype", "f16"])
    lines = _passes(lds_run(str(tmp_path / "encoder_layer_small_f16.onnx"), "--target", "lavapipe",
                            "--require-ldsopt")).splitlines()
    assert [line for line in lines if "_attention_" in line and line.endswith(": ldsopt: ldsopt-attention")], lines


def test_f16_encoder_casts_join_their_matmuls(suite, tmp_path):
    """The f16 encoder layer's projections, left apart (no ldsopt-fuse-projections, as where
    the weights are arguments), compute in f32 and cast to f16 before their bias: the dispatch
    formation with IREE's early truncation fusion (driver.FORMATIONS) forms one dispatch fewer
    (no dispatch of a cast alone), every one ldsopt's, so it is the one taken."""
    from ldsopt import target
    from ldsopt.run import driver

    suite.main([str(tmp_path), "--dtype", "f16"])
    text = driver.read_source(str(tmp_path / "encoder_layer_small_f16.onnx"))
    program = driver.apply_program_pipeline(text, "builtin.module(ldsopt-raise-attention)", "lavapipe")
    flags, _, report = driver.form_dispatches(program, target.known("lavapipe"), str(tmp_path), driver.DEFAULT_PIPELINE)
    assert set(driver.EARLY_TRUNC_FUSION) <= set(flags), flags
    assert all(d["passes"] for d in report), report
    names = [d["name"] for d in report]
    assert not [n for n in names if n.endswith("_f32xf16")], names  # a cast alone: f32 in, f16 out


# The blocks whose program passes put in fences: Llama's (ldsopt-pin-attention-reshapes on RoPE's
# result), GPT-2's with every weight's N x K copy made at load and its norms folded.
_FENCING = {"llama_block": pipelines.PROGRAM_PIPELINE,
            "gpt2_block": pipelines.program_pipeline(fold_norm=True, transpose_weights="all")}


@pytest.mark.parametrize("block", sorted(_FENCING))
def test_block_call_is_one_submission(suite, tmp_path, block):
    """The fences the program passes put in (a reshape kept on Llama's RoPE result, every
    weight's N x K copy, the folded norm's scaled weights and sums) are gone by the stream
    program: a call is one queue submission, and the host waits only on the results (a
    `util.optimization_barrier` there had cut the call into a submission per barrier, each
    waiting for the last)."""
    from ldsopt import target
    from ldsopt.run import driver

    path = tmp_path / f"{block}_small_f32.onnx"
    onnx.save(getattr(suite, block)(suite.SIZES["small"], "f32"), str(path))
    program = driver.apply_program_pipeline(driver.read_source(str(path)), _FENCING[block], "lavapipe")
    _, lowered, report = driver.form_dispatches(program, target.known("lavapipe"), str(tmp_path),
                                                driver.DEFAULT_PIPELINE)
    assert all(d["passes"] for d in report), report
    entry = lowered[lowered.index(f"util.func public @{block}"):]
    entry = entry[:entry.index("\n  }")]
    assert entry.count("stream.cmd.execute") == 1, entry
    awaits = [line.strip() for line in entry.splitlines() if "stream.timepoint.await" in line]
    assert awaits and not [a for a in awaits if "transient" in a], awaits


def test_opset9_model_is_upgraded(suite, models):
    """The opset-9 BatchNormalization that IREE's importer leaves unlowered runs once upgraded."""
    assert suite.mlp_classifier().opset_import[0].version == 9
    as_is = models / "as_is.mlir"
    subprocess.run([sys.executable, "-m", "iree.compiler.tools.import_onnx", str(models / "mlp_classifier.onnx"),
                    "-o", str(as_is)], check=True)
    with pytest.raises(model_import.ModelImportError, match="onnx.BatchNormalization"):
        model_import.lower_torch(as_is.read_text())
    model_import.lower_torch(model_import.import_onnx(str(models / "mlp_classifier.onnx")))


def test_torch_dialect_input(models, tmp_path, lds_run):
    path = tmp_path / "mlp_torch.mlir"
    path.write_text(model_import.import_onnx(str(models / "mlp_classifier.onnx")))
    assert "!torch.vtensor" in path.read_text()
    _passes(lds_run(str(path), "--target", "lavapipe"))


def test_unreadable_onnx_is_an_error(tmp_path, lds_run):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07not a protobuf\xff\xfe")
    proc = lds_run(str(bad), "--target", "lavapipe")
    assert proc.returncode == 1 and "error:" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_the_importer_error_holds_no_traceback_lines(tmp_path, lds_run):
    """A model the importer refuses (an op ONNX does not know): its error, not the lines of the
    importer's traceback (`  File ".../checker.py", line 163`) that the message used to hold."""
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    model = helper.make_model(helper.make_graph([helper.make_node("NoSuchOp", ["x"], ["y"])], "g", [x], [y]))
    onnx.save(model, str(tmp_path / "unknown_op.onnx"))
    proc = lds_run(str(tmp_path / "unknown_op.onnx"), "--target", "lavapipe")
    assert proc.returncode == 1 and "No Op registered for NoSuchOp" in proc.stderr, proc.stderr
    assert "  File " not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith(f"{tmp_path / 'unknown_op.onnx'}: error: iree-import-onnx failed (1):\n")
