"""The fuzzer's generators without a device: every generated program parses and verifies,
has the one public function lds-run takes, and the strategies reach the cases they claim."""

from hypothesis import given, settings
from iree.compiler import ir

import options
import programs
from ldsopt import registry
from ldsopt.run import driver


@settings(max_examples=40, derandomize=True, database=None)
@given(programs.reductions() | programs.elementwise() | programs.matmuls())
def test_programs_verify(program):
    with ir.Context() as ctx:
        module = ir.Module.parse(program.text, ctx)
        assert module.operation.verify(), program.text
    sig = driver.signature(program.text, None)
    assert sig.function == "main"
    assert program.text.startswith(f"// {program.summary}\n")


def _examples(strategy, n=150):
    found = []

    @settings(max_examples=n, derandomize=True, database=None)
    @given(strategy)
    def collect(x):
        found.append(x)

    collect()
    return found


def test_programs_reach_their_cases():
    summaries = [p.summary for p in _examples(programs.reductions())]
    for kind in ("add", "mul", "max", "min"):
        assert any(s.startswith(f"reduction {kind} ") for s in summaries), kind
    assert any("(long)" in s for s in summaries)
    assert any("xf16> -> tensor<" in s and "acc f32" in s for s in summaries)
    summaries = [p.summary for p in _examples(programs.elementwise())]
    assert any(s.startswith("linalg.transpose") for s in summaries)
    assert any(s.startswith("linalg.broadcast") for s in summaries)
    summaries = [p.summary for p in _examples(programs.matmuls())]
    for what in ("NN generic", "NT generic", "TN generic", "TT generic", "linalg.matmul", "linalg.batch_matmul"):
        assert any(what in s for s in summaries), what


def test_options_reach_every_family():
    """Every family a pass's options have: out-of-range values exist only for options that are
    not booleans, and a pass without options takes only malformed text."""
    for name in registry.pass_names():
        cls = registry.lookup(name)
        sets = _examples(options.option_sets(cls), 100)
        families = {v.family for opts in sets for _, v in opts}
        kinds = [tp for _, tp, *_ in cls.options()]
        expected = {"malformed"} | ({"in"} if kinds else set()) | ({"range"} if any(t != "bool" for t in kinds) else set())
        assert families == expected, (name, families)


def test_plausible_options_pass_the_option_check():
    """Plausible options reach the kernels: every value drawn is one the pass takes."""
    for name in registry.pass_names():
        cls = registry.lookup(name)
        for opts in _examples(options.option_sets(cls, plausible_only=True), 50):
            text = options.options_text(opts, " ")
            cls.from_options(text)  # raises on a value the pass does not take
