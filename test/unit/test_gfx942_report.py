"""The static gfx942 report (ldsopt.measure.gfx942_report) of a prepared folder, its bounds
(ldsopt.measure.mi300x), and lds-bench's choice between it and timing, with the HIP device
detection mocked (the H200 and this machine have none; an MI300 would)."""

import json
import pathlib
import shutil

import pytest

from ldsopt.measure import bench, bench_replay, gfx942_report, mi300x
from ldsopt.run import iree_tools
from ldsopt.tools import lds_bench

SAMPLES = pathlib.Path(__file__).parent / "isa_samples"
KERNEL = "main_dispatch_0_matmul_2048x2048x512_f16xf16xf32"
WORK = {"bytes": 2 * (2048 * 512 * 2) + 2048 * 2048 * 4, "flops": 2 * 2048 * 2048 * 512, "type": "f16"}


def _dispatch(folder: pathlib.Path, variant: str, sample: str, passes: list[str], conflicts: dict | None) -> dict:
    rel = f"mm/{variant}/module.rocmasm"
    (folder / rel).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(SAMPLES / f"{sample}.rocmasm", folder / rel)
    return {"name": KERNEL, "pipeline": "BaseLowering" if passes else "TileAndFuse", "passes": passes, "missed": {},
            "bank_conflicts": conflicts or {}, "module": rel.replace(".rocmasm", ".vmfb"), "isa": rel, "work": WORK}


# The prepared folder's copy of the cases: the one case, of f16 operands.
CASES_PY = """
import dataclasses
@dataclasses.dataclass
class Operand:
    dtype: str
@dataclasses.dataclass
class Case:
    name: str
    inputs: tuple
CASES = (Case("mm", (Operand("f16"), Operand("f16"))),)
"""

OURS = (["ldsopt-inthread-transpose", "ldsopt-matmul-lds"], {"A": {"stores": 0, "reads": 0}, "B": {"stores": 2, "reads": 4}})


def prepared(folder: pathlib.Path, program: bool = False) -> pathlib.Path:
    """A folder as `lds-bench --target gfx942 --prepare` leaves it: one case (or one dispatch
    of a program), ldsopt's kernel the in-thread transpose sample, IREE's its default matmul."""
    ours = _dispatch(folder, "ldsopt", "matmul_inthread_transpose", *OURS)
    iree = _dispatch(folder, "iree-default", "iree_default_matmul", [], None)
    man = {"target": "gfx942", "device": "hip", "commit": "abc123", "dirty": False, "pipeline": "p",
           "program_pipeline": "pp"}
    if program:
        man.update(program="layer", source="layer.onnx", dispatches=[{
            "name": KERNEL, "calls": 3, "passes": ours["passes"], "missed": {}, "bank_conflicts": ours["bank_conflicts"],
            "work": WORK, "isa": {"ldsopt": ours["isa"], "iree-default": iree["isa"]}}])
    else:
        man["cases"] = [{"name": "mm", "what": "matmul", "bytes": WORK["bytes"], "flops": WORK["flops"], "variants": {
            v: {"modules": [d["module"]], "dispatches": [d], "ldsopt_dispatches": int(v == "ldsopt"), "total_dispatches": 1}
            for v, d in (("ldsopt", ours), ("iree-default", iree))}}]
    (folder / "manifest.json").write_text(json.dumps(man))
    (folder / "cases.py").write_text(CASES_PY)
    return folder


def test_bound_at_the_mi300x_peaks():
    b = mi300x.bound(WORK["bytes"], WORK["flops"], "f16")
    assert b["bytes_us"] == pytest.approx(WORK["bytes"] / 5.3e12 * 1e6)
    # the f32 output's 16 MiB make it bytes: 3.96 us against 3.29 at the f16 MFMA peak
    assert b["flops_us"] == pytest.approx(WORK["flops"] / 1307.4e12 * 1e6) and b["bound"] == "bytes"
    assert mi300x.bound(WORK["bytes"], 4 * WORK["flops"], "bf16")["bound"] == "flops"
    elementwise = mi300x.bound(8 << 20, 0, None)
    assert elementwise["flops_us"] is None and elementwise["bound"] == "bytes"
    assert mi300x.bound(1, 10, "f64")["peak_flops"] == 163.4e12


def test_loop_points_to():
    assert mi300x.loop_points_to(0, 4096, None) == ("bytes", "no MFMA")
    balance = 1307.4e12 / 5.3e12
    assert mi300x.loop_points_to(int(balance * 1000) + 1000, 1000, "f16")[0] == "flops"
    points, why = mi300x.loop_points_to(65536, 3072, "f16")
    assert points == "bytes" and why.startswith("21 FLOP/B: the MFMA peak needs 61 TB/s") and "11.6x HBM" in why


def test_report_of_the_cases(tmp_path):
    rep = gfx942_report.report(str(prepared(tmp_path)))
    (row,) = rep["rows"]
    assert row["bound"]["bound"] == "bytes" and row["bound"]["type"] == "f16"
    (ours,), (iree,) = (row["variants"][v]["kernels"] for v in ("ldsopt", "iree-default"))
    assert (ours["vgprs"], ours["lds_bytes"], ours["occupancy"]["waves"], ours["occupancy"]["limited_by"]) == \
        (134, 36864, 1, ["lds"])
    assert ours["occupancy"]["limits"]["vgprs"] == 3 and iree["occupancy"]["limits"]["vgprs"] == 3
    assert ours["loop"]["ops"]["v_perm_b32"] == {"v_perm_b32": 8} and iree["loop"]["ops"]["mfma"] == \
        {"v_mfma_f32_16x16x16_f16": 64}
    assert ours["bank_conflicts"] == OURS[1] and iree["bank_conflicts"] is None
    assert ours["points_to"]["of"] == "main loop" and ours["points_to"]["bound"] == "bytes"
    assert ours["points_to"]["intensity"] == 32 * 8192 / (64 * (2 * 16 + 4 * 8))
    md = gfx942_report.markdown(rep).splitlines()
    assert "| mm | ldsopt | inthread-transpose, matmul-lds | 134 / 0 / 24 | 1 (lds) | 36864 | 0 / 0+0 | 1 | " \
           "A 0/0, B 2/4 |" in md
    assert "| mm | iree-default | - | 159 / 0 / 22 | 1 (lds) | 50688 | 0 / 0+0 | 1 | - |" in md
    loop_rows = [line for line in md if line.startswith("| mm | iree-default | 16x16x16f16×64 |")]
    assert loop_rows and "| u16×128 read2_b64×8 | write2_b64×12 | b128×12 | 0 | 0 | 38 | 2 | 64 |" in loop_rows[0]
    assert "| mm | 21.0 MB | 3.96 | 3.29 | bytes | 1 (lds) / 1 (lds) | 64 → bytes / 43 → bytes |" in md


def test_a_variant_that_failed_to_compile(tmp_path):
    """IREE's default pipeline cannot compile some dispatches (causal attention): its column
    says so, ldsopt's stands alone, and the bound still takes the case's type from cases.py."""
    folder = prepared(tmp_path)
    man = json.loads((folder / "manifest.json").read_text())
    man["cases"][0]["variants"]["iree-default"] = {"modules": [], "dispatches": [], "ldsopt_dispatches": 0,
                                                   "total_dispatches": 0, "error": "IREE's default pipeline failed: x"}
    (folder / "manifest.json").write_text(json.dumps(man))
    rep = gfx942_report.report(str(folder))
    assert rep["rows"][0]["variants"]["iree-default"]["kernels"] == []
    md = gfx942_report.markdown(rep).splitlines()
    assert "| mm | 21.0 MB | 3.96 | 3.29 | bytes | 1 (lds) / failed | 64 → bytes / failed |" in md
    assert md.count("| mm | iree-default | IREE's default pipeline failed |" + " - |" * 6) == 1
    assert md.count("| mm | iree-default | IREE's default pipeline failed |" + " - |" * 9) == 1


def test_report_of_a_program_and_its_files(tmp_path):
    folder = prepared(tmp_path, program=True)
    rep = gfx942_report.write(str(folder))
    assert rep["program"] == "layer" and rep["rows"][0]["calls"] == 3
    md = (folder / "gfx942_report.md").read_text()
    assert "| dispatch | calls | bytes |" in md and "| `dispatch_0_matmul_2048x2048x512_f16xf16xf32` | 3 |" in md
    assert json.loads((folder / "gfx942_report.json").read_text())["rows"][0]["name"] == KERNEL
    if pytest.importorskip("matplotlib"):
        assert (folder / "gfx942_report.png").stat().st_size > 0


def test_a_folder_of_another_target_is_refused(tmp_path):
    folder = prepared(tmp_path)
    man = json.loads((folder / "manifest.json").read_text())
    (folder / "manifest.json").write_text(json.dumps({**man, "target": "cuda"}))
    assert gfx942_report.main([str(folder)]) == 1
    assert not gfx942_report.join(str(folder))


def _no_compile(tmp_path):
    """bench.prepare / prepare_program stand-ins: the prepared folder, without compiling."""
    def prepare(target, folder, *args, **kwargs):
        assert target == "gfx942"
        prepared(pathlib.Path(folder))
    return prepare


def test_lds_bench_without_a_hip_device_writes_the_static_report(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(iree_tools, "available_devices", lambda: frozenset({"local-task", "vulkan"}))
    monkeypatch.setattr(bench, "prepare", _no_compile(tmp_path))
    monkeypatch.setattr(bench_replay, "main", lambda argv: pytest.fail("timed without a HIP device"))
    assert lds_bench.main(["--target", "gfx942", "--cases", "mm", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line for line in out if "HIP" in line] == [
        f"lds-bench: no HIP device here, so the gfx942 kernels are not run: writing their static report (from the "
        f"ISA) to {tmp_path / 'gfx942_report'}.{{json,md,png}}"]
    assert json.loads((tmp_path / "gfx942_report.json").read_text())["rows"][0]["name"] == "mm"


def test_lds_bench_with_a_hip_device_times_and_joins_the_static_columns(tmp_path, monkeypatch):
    monkeypatch.setattr(iree_tools, "available_devices", lambda: frozenset({"hip", "local-task"}))
    monkeypatch.setattr(bench, "prepare", _no_compile(tmp_path))
    timed = []

    def replay_main(argv):
        timed.append(argv[0])
        results = {"cases": [{"name": "mm", "ldsopt": {"us": 100.0}, "iree-default": {"us": 150.0}}]}
        (tmp_path / "results.json").write_text(json.dumps(results))
        (tmp_path / "results.md").write_text("# lds-bench\n")
        return 0

    monkeypatch.setattr(bench_replay, "main", replay_main)
    assert lds_bench.main(["--target", "gfx942", "--cases", "mm", "--out", str(tmp_path)]) == 0
    assert timed == [str(tmp_path)]
    results = json.loads((tmp_path / "results.json").read_text())
    (case,) = results["cases"]
    assert case["ldsopt"]["us"] == 100.0 and case["static"]["ldsopt"][0]["vgprs"] == 134
    assert results["static_report"] == "gfx942_report.json"
    assert "## gfx942 (MI300X)" in (tmp_path / "results.md").read_text()
