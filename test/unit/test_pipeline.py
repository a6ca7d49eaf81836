"""Unit tests of ldsopt.pipeline's IR printing plan: printing before/after named passes runs
the pipeline as pass managers in turn, each named pass alone, nested pipelines split one pass
each, the same passes in the same order."""

from ldsopt import pipeline

TEXT = "builtin.module(ldsopt-lower-elementwise, func.func(canonicalize, cse), cse)"


def plan(**printing):
    segs = pipeline.segments(pipeline.parse(TEXT), pipeline.Printing(**printing))
    return [([el.py_pass.NAME if el.py_pass else el.text for el in els], before, after) for els, before, after in segs]


def test_without_named_passes_one_pass_manager():
    assert plan(after_all=True) == [(["ldsopt-lower-elementwise", "func.func(canonicalize, cse)", "cse"], False, True)]


def test_named_pass_alone_nested_ones_split():
    assert plan(after=frozenset({"cse"})) == [
        (["ldsopt-lower-elementwise", "func.func(canonicalize)"], False, False),
        (["func.func(cse)"], False, True),
        (["cse"], False, True),
    ]


def test_named_ldsopt_pass_and_all():
    assert plan(before=frozenset({"ldsopt-lower-elementwise"}), after_all=True) == [
        (["ldsopt-lower-elementwise"], True, True),
        (["func.func(canonicalize)", "func.func(cse)", "cse"], False, True),
    ]
