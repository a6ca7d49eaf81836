"""stack_values.check on lavapipe: the suite's small GPT-2 (LayerNorm) and Llama (RMSNorm) blocks at
hidden 128, three layers in one call with `ldsopt-fold-norm{stats=producer}` (each later layer's
first norm folded into its Q, K and V projections, its statistics made by the previous layer's
FFN down, the case a single layer never has), run and judged against the PyTorch twin on the
CPU, in f32 and in f16. The same check fails when told the stack holds a layer fewer than it
does."""

import dataclasses

import pytest

from ldsopt.measure import bench, stack_values
from ldsopt.run import driver, pipelines

onnx = pytest.importorskip("onnx")
torch = pytest.importorskip("torch")

PRODUCER = pipelines.program_pipeline(fold_norm=True).replace("ldsopt-fold-norm)",
                                                              "ldsopt-fold-norm{stats=producer})")


@pytest.mark.parametrize("kind", ["gpt2_block", "llama_block"])
def test_folded_stack_against_its_twin(suite, tmp_path, kind):
    from onnx import numpy_helper

    from ldsopt.models import torch_twins as twins
    model = getattr(suite, kind)(dataclasses.replace(suite.SIZES["small"], hidden=128, ffn=256), "f16")
    path = tmp_path / f"{kind}.onnx"
    onnx.save(model, str(path))
    text, function = bench.stacked(driver.read_source(str(path)), 3, str(path))
    (tmp_path / "stack.mlir").write_text(text)
    folder = tmp_path / "stack"
    man = driver.prepare(str(tmp_path / "stack.mlir"), "lavapipe", str(folder), function=function,
                         program_pipeline=PRODUCER, run_reference=False)
    assert all(d["passes"] for d in man["dispatches"]), man["dispatches"]  # every dispatch ldsopt's
    # One norm dispatch in three layers: the first layer's, whose x is the stack's input; each
    # later layer's first norm is folded into the products after it.
    configured = (folder / "configured.mlir").read_text()
    called, single = (bench.dispatch_calls(configured.split(f"util.func public @{f}(")[1].split("util.func")[0])
                      for f in (function, kind))
    norms = sum(n for c, n in called.items() if "_reduction_" in c)
    assert norms == 1 and sum(called.values()) == 3 * sum(single.values()) - 2, (called, single)
    name, kwargs = twins.named_twin(model)
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    low, f32 = (getattr(twins, name)(weights, "cpu", dtype, **kwargs) for dtype in ("float16", "float32"))
    r = stack_values.check(torch, str(folder), 3, low, f32, device="cpu")
    assert r["passed"] and 0 < r["relative_error"], r
    wrong = stack_values.check(torch, str(folder), 2, low, f32, device="cpu")
    assert not wrong["passed"] and wrong["relative_error"] > 10 * wrong["bound"], wrong
