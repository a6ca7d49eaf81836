"""ldsopt.remarks and how the tools print them (replay.dispatch_lines)."""

from iree.compiler import ir

from ldsopt import remarks
from ldsopt.run.replay import dispatch_lines


def test_unmatched_is_falsy_with_its_reason():
    u = remarks.Unmatched("dynamic shapes")
    assert not u and u.reason == "dynamic shapes"


def test_reasons_keep_pipeline_order_and_a_rerun_replaces():
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse("func.func @d() { return }")
        func = module.body.operations[0].operation
        assert remarks.reasons(func) == {}
        remarks.missed(func, "ldsopt-z", "first")
        remarks.missed(func, "ldsopt-a", "second")
        remarks.missed(func, "ldsopt-z", "again")
        assert list(remarks.reasons(func).items()) == [("ldsopt-z", "again"), ("ldsopt-a", "second")]
        # The record survives printing and parsing, as it must through IREE.
        reparsed = ir.Module.parse(str(module)).body.operations[0].operation
        assert remarks.reasons(reparsed) == {"ldsopt-z": "again", "ldsopt-a": "second"}


def test_dispatch_lines_give_reasons_under_fallbacks_and_coverage():
    lines = dispatch_lines([
        {"name": "d0", "pipeline": "BaseLowering", "passes": ["ldsopt-vector-distribute"], "missed": {}},
        {"name": "d1", "pipeline": "TileAndFuse", "passes": [],
         "missed": {"ldsopt-matmul-lds": "operands f16 x f16 -> f16", "ldsopt-lower-elementwise": "not elementwise"}},
    ])
    assert lines == ["dispatch d0: ldsopt: ldsopt-vector-distribute",
                     "dispatch d1: iree-default (TileAndFuse)",
                     "  ldsopt-matmul-lds: operands f16 x f16 -> f16",
                     "  ldsopt-lower-elementwise: not elementwise",
                     "ldsopt lowered 1 of 2 dispatches"]


def test_dispatch_lines_of_a_manifest_without_remarks():
    """Folders prepared before remarks existed replay as before, with the coverage line."""
    assert dispatch_lines([{"name": "d", "pipeline": "P", "passes": []}]) == \
        ["dispatch d: iree-default (P)", "ldsopt lowered 0 of 1 dispatches"]
