"""ldsopt.program_bench times the whole function of prepared folders (here on lavapipe: the
harness, not a performance figure)."""

import json
import subprocess
import sys

PROGRAM = """
func.func @main(%a: tensor<64x128xf32>, %b: tensor<128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<64x128xf32>, tensor<128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
"""


def test_program_bench_times_both_variants(tmp_path, lds_run):
    src = tmp_path / "add.mlir"
    src.write_text(PROGRAM)
    for name, extra in (("iree", ["--baseline"]), ("ldsopt", [])):
        proc = lds_run(str(src), "--target", "lavapipe", "--prepare", str(tmp_path / name), *extra)
        assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([sys.executable, "-m", "ldsopt.measure.program_bench", str(tmp_path / "iree"), str(tmp_path / "ldsopt"),
                           "--repetitions", "2", "--out", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    first, ours = json.loads((tmp_path / "program_bench.json").read_text())
    assert first["pipeline"] == "iree-default" and first["ldsopt_dispatches"] == 0
    assert ours["ldsopt_dispatches"] == ours["total_dispatches"] == 1
    assert first["us"] > 0 and ours["us"] > 0 and len(ours["repetitions"]) == 2
    assert "ldsopt lowered 1 of 1 dispatches" in proc.stdout


def test_unprepared_folder_is_an_error(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "ldsopt.measure.program_bench", str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 1 and "error:" in proc.stderr and "Traceback" not in proc.stderr
