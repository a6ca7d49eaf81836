"""The compile-side driver's checks on a program, before anything is compiled."""

import pytest

from ldsopt import driver, target

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
