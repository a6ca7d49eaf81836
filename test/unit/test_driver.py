"""The compile-side driver: its checks on a program before anything is compiled, the inputs
it makes and the tolerances it records."""

import pathlib
import re

import pytest

from ldsopt import target
from ldsopt.run import driver, formation

SUM = """func.func @main(%a: tensor<{n}xf32>) -> tensor<f32> {{
  %e = tensor.empty() : tensor<f32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
      iterator_types = ["reduction"]}} ins(%a : tensor<{n}xf32>) outs(%e : tensor<f32>) {{
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }} -> tensor<f32>
  return %r : tensor<f32>
}}
"""


def test_signature_reads_shapes_and_types():
    sig = driver.signature(SUM.format(n=1009), None)
    assert sig.function == "main"
    assert sig.inputs == [([1009], "f32")]
    assert sig.outputs == [([], "f32")]


def test_signature_needs_a_named_function_when_ambiguous():
    two = SUM.format(n=4) + SUM.format(n=8).replace("@main", "@other")
    with pytest.raises(driver.DriverError, match="exactly one public function"):
        driver.signature(two, None)
    assert driver.signature(two, "other").inputs == [([8], "f32")]


def test_lavapipe_refuses_buffers_past_its_binding_range():
    """lavapipe binds at most 128 MiB: a 256 MiB input would be read as garbage, silently."""
    lavapipe = target.known("lavapipe")
    driver.check_buffer_sizes(driver.signature(SUM.format(n=1 << 25), None), lavapipe)  # 128 MiB: fits
    with pytest.raises(driver.DriverError, match="argument 0 .268435456 bytes. is larger"):
        driver.check_buffer_sizes(driver.signature(SUM.format(n=1 << 26), None), lavapipe)
    driver.check_buffer_sizes(driver.signature(SUM.format(n=1 << 26), None), target.known("cuda"))


def test_reference_source_drops_gpu_configs():
    text = SUM.format(n=64).replace('iterator_types = ["reduction"]}',
                                    'iterator_types = ["reduction"], lowering_config = '
                                    '#iree_gpu.lowering_config<{workgroup = [0]}>}')
    assert "lowering_config" in text
    assert "lowering_config" not in driver.without_gpu_configs(text)


def test_reference_source_inlines_dispatch_regions():
    """A flow.dispatch.region is ldsopt's formation, not the program's values: the reference
    computes its body where the region stood, its results replaced by the body's."""
    body = SUM.format(n=64).split("\n", 1)[1].rsplit("  return", 1)[0]
    text = ("func.func @main(%a: tensor<64xf32>) -> tensor<f32> {\n"
            "  %d = flow.dispatch.region -> (tensor<f32>) {\n" + body + "    flow.return %r : tensor<f32>\n  }\n"
            "  return %d : tensor<f32>\n}\n")
    out = driver.without_gpu_configs(text)
    assert "flow.dispatch.region" not in out and "flow.return" not in out
    assert re.search(r"(%\d+) = linalg.generic .*return \1 : tensor<f32>", out, re.S)


def test_user_configs_are_marked():
    program = """func.func @main(%x: tensor<16x8xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x8xf32>) outs(%y : tensor<16xf32>)
      attrs = {lowering_config = #iree_gpu.lowering_config<{lane_basis = [[8, 1], [0, 1]]}>} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %n = arith.negf %r : tensor<16xf32>
  return %n : tensor<16xf32>
}"""
    marked = driver.mark_user_configs(program)
    assert marked.count("ldsopt.user_config") == 1 and "lowering_config" in marked
    plain = program.replace("attrs = {lowering_config = #iree_gpu.lowering_config<{lane_basis = [[8, 1], [0, 1]]}>} ", "")
    assert driver.mark_user_configs(plain) == plain


def test_dispatch_flags_fuse_where_it_pays(tmp_path):
    """Aggressive fusion makes a decomposed softmax one dispatch (ldsopt's); for the NHWC example it would
    fuse a transposing producer into the reduction's dispatch, which no pass takes: IREE's
    default formation is kept there."""
    root = pathlib.Path(__file__).resolve().parents[2]
    lavapipe = target.known("lavapipe")
    # Decomposed (max, sum of exp, divide): two dispatches by default. linalg.softmax is one
    # either way, so it keeps the default.
    softmax = (root / "test" / "e2e" / "programs" / "fused" / "softmax_generics_f32_9x7.mlir").read_text()
    nhwc = (root / "examples" / "nhwc_bias_relu_sum.mlir").read_text()
    for name, text, fused in (("softmax", softmax, True), ("nhwc", nhwc, False)):
        folder = tmp_path / name
        folder.mkdir()
        flags = driver.dispatch_flags(text, lavapipe, str(folder), driver.DEFAULT_PIPELINE)
        assert set(driver.NO_INLINED_CONSTANTS) <= set(flags), name
        assert (set(driver.AGGRESSIVE_FUSION) <= set(flags)) == fused, name


def test_one_lowered_dispatch_is_configured_once(tmp_path, monkeypatch):
    """A program IREE forms into one dispatch that ldsopt lowers is not configured a second
    time with aggressive fusion (nothing could do better); configured.mlir is the choice's."""
    root = pathlib.Path(__file__).resolve().parents[2]
    text = (root / "test" / "e2e" / "programs" / "fused" / "softmax_f32_9x7.mlir").read_text()
    calls = []
    configure = driver.configure
    monkeypatch.setattr(driver, "configure", lambda *a, **k: calls.append(a[3]) or configure(*a, **k))
    flags, lowered, report = driver.form_dispatches(text, target.known("lavapipe"), str(tmp_path),
                                                    driver.DEFAULT_PIPELINE)
    assert calls == [driver.NO_INLINED_CONSTANTS] and flags == driver.NO_INLINED_CONSTANTS
    assert [d["passes"] for d in report] == [["ldsopt-vector-distribute"]]
    assert "ldsopt.lowered_by" in lowered
    assert "ldsopt.lowered_by" not in (tmp_path / "configured.mlir").read_text()  # as IREE configured it
    assert "hal.executable" in (tmp_path / "configured.mlir").read_text()



def test_padding_fused_where_ldsopt_reads_it(tmp_path):
    """A convolution's zero padding is fused into its dispatch (formation.FUSE_PADDING), read by the
    implicit GEMM: one dispatch, ldsopt's. A padding of ones, which the implicit GEMM does not
    read, keeps IREE's formation where no other pass reads it either (here the pipeline without
    ldsopt-window-reduce, which would take the padded convolution as a window reduction): IREE
    copies it into a padded buffer and the convolution stays ldsopt-matmul-lds's."""
    conv = pathlib.Path(__file__).resolve().parents[1] / "e2e" / "programs" / "conv"
    lavapipe = target.known("lavapipe")
    pipeline = driver.DEFAULT_PIPELINE.replace(" ldsopt-window-reduce,", "")
    assert pipeline != driver.DEFAULT_PIPELINE
    for name, fused in (("pad_asym_fhwc_3x3_s1_bias_f32_1x11x13x7_9", True),
                        ("pad_value_one_fhwc_3x3_s1_bias_f32_1x11x13x7_9", False)):
        folder = tmp_path / name
        folder.mkdir()
        flags, _, report = driver.form_dispatches((conv / f"{name}.mlir").read_text(), lavapipe, str(folder), pipeline)
        assert (set(formation.FUSE_PADDING) <= set(flags)) == fused, (name, flags)
        assert [d["passes"] for d in report if "_conv_" in d["name"]] == [["ldsopt-matmul-lds"]], report
        assert len(report) == (1 if fused else 2), report
