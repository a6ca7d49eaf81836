"""Unit tests of ldsopt.pipeline's IR printing plan: printing before/after named passes runs
the pipeline as pass managers in turn, each named pass alone, nested pipelines split one pass
each, the same passes in the same order. And: a pass that leaves broken IR fails the run."""

import dataclasses

import pytest
from iree.compiler import ir

from ldsopt import pipeline, registry

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


@dataclasses.dataclass(frozen=True)
class _UseBeforeDefinition(registry.ModulePass):
    NAME = "ldsopt-test-use-before-definition"
    SUMMARY = "moves each function's first op after its second: a use before its definition"

    def run(self, module: ir.Operation) -> None:
        for func in module.regions[0].blocks[0].operations:
            first, second = list(func.regions[0].blocks[0].operations)[:2]
            first.move_after(second)


BROKEN = "\n".join(f"""
func.func @f{i}() -> i32 {{
  %a = arith.constant {i} : i32
  %b = arith.addi %a, %a : i32
  return %b : i32
}}""" for i in range(2))


def test_broken_ir_after_a_pass_fails_the_run(monkeypatch):
    """The verifier runs after each pass: a pass that leaves a use before its definition fails
    `run` with the verifier's error, here with a Python diagnostic handler attached as the
    tools attach one."""
    monkeypatch.setitem(registry._table(), _UseBeforeDefinition.NAME, f"{__name__}:_UseBeforeDefinition")
    ctx = ir.Context()
    seen = []
    ctx.attach_diagnostic_handler(lambda d: seen.append(str(d)) or True)
    module = ir.Module.parse(BROKEN, ctx)
    with pytest.raises(ir.MLIRError) as error:
        pipeline.run(module, f"builtin.module({_UseBeforeDefinition.NAME})")
    assert "does not dominate" in str(error.value) + "".join(seen)
