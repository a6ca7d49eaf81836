"""Unit tests of ldsopt.registry's options: every option of every pass declares the values it
takes, and a value out of range is an OptionError naming the option and the range (where the
pipeline is parsed, located at the option) or, for a limit of the target, a PassError at the
dispatch."""

import dataclasses
import typing

import pytest
from iree.compiler import ir

from ldsopt import pipeline, registry
from ldsopt.layout import dtl
from ldsopt import target as target_model


def all_passes():
    return [registry.lookup(name) for name in registry.pass_names()]


@pytest.mark.parametrize("cls", all_passes(), ids=registry.pass_names())
def test_every_option_declares_its_values(cls):
    """An int or str option without a declared range would reach the pass unchecked."""
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        m = f.metadata
        declared = m["min"] is not None or m["choices"] or m["check"] is not None
        assert hints[f.name] is bool or declared, f"{cls.NAME}: option {f.name} declares no range"


@pytest.mark.parametrize("cls", all_passes(), ids=registry.pass_names())
def test_defaults_are_in_range(cls):
    assert cls.from_options("") == cls()


@pytest.mark.parametrize("name, text, message", [
    ("ldsopt-lower-elementwise", "workgroup-size=0",
     "option 'workgroup-size' of pass 'ldsopt-lower-elementwise' takes >= 1, at most the target's threads per "
     "workgroup; got '0'"),
    ("ldsopt-lower-elementwise", "workgroup-size=-5", "takes >= 1"),
    ("ldsopt-vector-distribute", "max-workgroups=-1", "option 'max-workgroups' of pass 'ldsopt-vector-distribute' "
                                                      "takes >= 1; got '-1'"),
    ("ldsopt-vector-distribute", "configs=some", "takes user | all | none; got 'some'"),
    ("ldsopt-preload-transposed", "workgroups-per-cu=0", "option 'workgroups-per-cu'"),
    ("ldsopt-split-reduction", "min-chunk=0", "option 'min-chunk' of pass 'ldsopt-split-reduction' takes >= 1"),
    ("ldsopt-split-matmul", "min-gain=0.5", "option 'min-gain' of pass 'ldsopt-split-matmul' takes >= 1.0"),
    ("ldsopt-split-matmul", "min-gain=nan", "option 'min-gain' of pass 'ldsopt-split-matmul' expects float, got 'nan'"),
    ("ldsopt-split-matmul", "min-gain=inf", "expects float, got 'inf'"),
    ("ldsopt-matmul-lds", "tiles=1x1x1", "tile '1x1x1' is not BMxBNxTMxTN"),
    ("ldsopt-matmul-lds", "tiles=8x8x3x1", "TM must divide BM"),
    ("ldsopt-matmul-lds", "stages=1", "option 'stages' of pass 'ldsopt-matmul-lds' takes >= 2; got '1'"),
    ("ldsopt-dtl-layout", "layout=perm<0,0>", "DTL layout 'perm<0,0>': stride must divide block"),
    ("ldsopt-dtl-layout", "layout=perm<4>", "perm takes 2 numbers, not 1"),
    ("ldsopt-dtl-layout", "lane-bytes=2", "takes 0 | 4 | 8 | 16; got '2'"),
    ("ldsopt-inthread-transpose", "swizzle=4,1", "a rotating swizzle is 0 (none) or three positive numbers"),
    ("ldsopt-inthread-transpose", "lane-rows=3", "takes -1 | 1 | 2 | 4; got '3'"),
    ("ldsopt-inthread-transpose", "copy=direct prefetch=2", "prefetch=2 needs copy=registers"),
])
def test_out_of_range_is_an_option_error(name, text, message):
    with pytest.raises(registry.OptionError) as e:
        registry.lookup(name).from_options(text)
    assert message in str(e.value)


def test_python_construction_is_checked_too():
    with pytest.raises(registry.OptionError, match="option 'workgroup-size'"):
        registry.lookup("ldsopt-lower-elementwise")(workgroup_size=0)


def test_pipeline_error_points_at_the_option():
    text = "builtin.module(cse, ldsopt-vector-distribute{unroll=2 max-workgroups=-1})"
    with pytest.raises(pipeline.PipelineError) as e:
        pipeline.parse(text)
    assert e.value.col == text.index("max-workgroups") + 1
    assert e.value.where("<pass-pipeline>") == f"<pass-pipeline>:1:{e.value.col}"


def test_unknown_ldsopt_pass_is_located():
    text = "builtin.module(ldsopt-nope)"
    with pytest.raises(pipeline.PipelineError, match="unknown ldsopt pass 'ldsopt-nope'") as e:
        pipeline.check(text)
    assert e.value.col == text.index("ldsopt-nope") + 1


def test_unknown_cpp_pass_is_a_pipeline_error():
    text = "builtin.module(cse, no-such-pass, canonicalize)"
    with pytest.raises(pipeline.PipelineError, match="no-such-pass") as e:
        pipeline.check(text)
    assert e.value.col == text.index("no-such-pass") + 1


def test_target_limit_is_a_located_pass_error():
    lavapipe = target_model.by_name("lavapipe")
    cls = registry.lookup("ldsopt-lower-elementwise")
    with ir.Context(), ir.Location.unknown() as loc:
        cls(workgroup_size=lavapipe.max_threads).check_target(lavapipe, loc)
        with pytest.raises(registry.PassError) as e:
            cls(workgroup_size=2048).check_target(lavapipe, loc)
    assert e.value.message == ("ldsopt-lower-elementwise: option 'workgroup-size=2048' is more than the target's "
                               "threads per workgroup (1024)")


def test_list_passes_states_the_ranges():
    opts = {o[0]: o for o in registry.lookup("ldsopt-vector-distribute").options()}
    assert opts["workgroup-size"][3] == ">= 0, at most the target's threads per workgroup"
    assert opts["configs"][3] == "user | all | none"


@pytest.mark.parametrize("text", ["perm<16,8>+block_pad<512,16>", "rotation<3,8,4>", "block_pad<100,4>", "none"])
def test_good_dtl_layouts_parse(text):
    assert dtl.DtlSpec.parse(text).text == text


def test_target_compute_types():
    lavapipe = target_model.by_name("lavapipe")
    # lavapipe has shaderInt64 and shaderFloat64, both declared (IREE emulates neither).
    assert lavapipe.computes("i64") and lavapipe.computes("i8") and lavapipe.computes("f64")
    assert lavapipe.computes("bf16")  # not a compute type IREE names: it converts bf16 itself


@dataclasses.dataclass(frozen=True)
class _Toy(registry.ModulePass):
    NAME = "toy"
    SUMMARY = "a pass of test options"

    n: int = registry.option(2, "n", min=1, max=4)
    sizes: tuple[int, ...] = registry.option((), "sizes", min=1)


@pytest.mark.parametrize("text, message", [
    ("n=5", "option 'n' of pass 'toy' takes 1..4; got '5'"),
    ("n=0", "takes 1..4; got '0'"),
    ("sizes=2,0,3", "option 'sizes' of pass 'toy' takes >= 1; got '2,0,3'"),
])
def test_max_and_list_elements(text, message):
    with pytest.raises(registry.OptionError, match=message):
        _Toy.from_options(text)
    assert _Toy.from_options("n=4 sizes=1,2") == _Toy(n=4, sizes=(1, 2))


@pytest.mark.parametrize("cls", all_passes(), ids=registry.pass_names())
def test_textual_form_reads_back(cls):
    """The form dumps and --dump-pass-pipeline show (every option spelt out) builds the same pass."""
    name, _, options = cls().textual().partition("{")
    assert name == cls.NAME
    assert cls.from_options(options.rstrip("}")) == cls()


def test_bare_boolean_option_is_true():
    cls = registry.lookup("ldsopt-inthread-transpose")
    assert cls.from_options("force").force is True
    assert cls.from_options("lane-rows=2 force").force is True
    assert cls.from_options("force=false").force is False
    with pytest.raises(registry.OptionError, match="option 'lane-rows' has no value"):
        cls.from_options("lane-rows")
