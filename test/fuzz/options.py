"""Hypothesis strategies for pass options: random values for the typed options of a
registered pass (ldsopt/registry.py), as the text between a pass's braces.

Each value belongs to a family:
- `in`: plausible values (small positive numbers, the words its help text names, tilings
  and layouts of powers of two); `plausible_only` draws them from what the option declares
  it takes (its choices, else values its help text names that the pass accepts), so that
  they reach the kernels rather than the option check;
- `range`: well-formed but out of range (zero, negative, huge; tilings and layouts with
  such numbers or repeated ones);
- `malformed`: text that is not of the option's type (or an option that does not exist).
Every family must give either a result or a located `error:`.
"""

from __future__ import annotations

import dataclasses
import re

from hypothesis import assume
from hypothesis import strategies as st


@dataclasses.dataclass(frozen=True)
class Value:
    text: str
    family: str  # "in" | "range" | "malformed"


IN_INTS = (1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 1024)
RANGE_INTS = (0, -1, -2, -1000, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 63, 10 ** 30)
MALFORMED_INTS = ("", "abc", "1.5", "0x10", "1e3", "-", "--1", "1,2", "true", "1x1")
MALFORMED_TEXT = ("", "x", "<>", "perm<", "perm<a,b>", "64x", "x64", "64xx64", "(", ")", "}", "{", "=", "a=b",
                  "é", "<<1>>", "1x2x3x4x5x6x7x8x9")
# Option names a pass may be given by mistake.
WRONG_NAMES = ("no-such-option", "workgroup_size", "WORKGROUP-SIZE", "tiles ", "")

_WORD = re.compile(r"\b[a-z][a-z_]*(?:<[^>]*>)?")
# Values a help text gives as examples: tilings (96x96x3x4,...) and layouts (perm<16,8>+...).
_EXAMPLE = re.compile(r"\d+(?:x\d+)+(?:,\d+(?:x\d+)+)*|[a-z_]+<[\d,]+>(?:\+[a-z_]+<[\d,]+>)*")


def _words(default, help_text: str) -> list[str]:
    """Words of the help text and the default: the choices a string option names."""
    words = {w for w in _WORD.findall(help_text) if len(w) > 1}
    if default:
        words.add(str(default))
    return sorted(words)


def ints(family: str):
    if family == "in":
        return st.sampled_from(IN_INTS)
    return st.one_of(st.sampled_from(RANGE_INTS), st.integers(-(2 ** 70), -1))


def _int_values(plausible: bool):
    plain = ints("in").map(lambda i: Value(str(i), "in"))
    if plausible:
        return plain
    return st.one_of(plain, ints("range").map(lambda i: Value(str(i), "range")),
                     st.sampled_from(MALFORMED_INTS).map(lambda t: Value(t, "malformed")))


IN_FLOATS = ("1", "1.25", "1.5", "2", "4.0")
RANGE_FLOATS = ("0", "0.5", "-1", "-1e30", "1e300", "1e400", "inf", "-inf", "nan")
MALFORMED_FLOATS = ("", "abc", "1,5", "0x1p3x", "1.2.3", "--1", "true")


def _float_values(plausible: bool):
    plain = st.sampled_from(IN_FLOATS).map(lambda t: Value(t, "in"))
    if plausible:
        return plain
    return st.one_of(plain, st.sampled_from(RANGE_FLOATS).map(lambda t: Value(t, "range")),
                     st.sampled_from(MALFORMED_FLOATS).map(lambda t: Value(t, "malformed")))


def _bool_values(plausible: bool):
    plain = st.sampled_from(("true", "false", "1", "0")).map(lambda t: Value(t, "in"))
    if plausible:
        return plain
    return st.one_of(plain, st.sampled_from(("yes", "True", "2", "", "on")).map(lambda t: Value(t, "malformed")))


@st.composite
def _structured(draw, words: list[str], plausible: bool):
    """A tiling (AxBxCxD, several separated by commas) or a parametrized word (w<a,b,c>)."""
    family = "in" if plausible else draw(st.sampled_from(("in", "range")))
    nums = st.lists(ints(family) if family == "in" else st.one_of(ints("in"), ints("range")), min_size=1,
                    max_size=5, unique=plausible)
    if words and draw(st.booleans()):
        ns = draw(nums)
        if family == "in" and len(set(ns)) < len(ns):
            family = "range"  # repeated numbers (perm<0,0>) are out of range
        return Value(f"{draw(st.sampled_from(words)).partition('<')[0]}<{','.join(map(str, ns))}>", family)
    tilings = draw(st.lists(nums, min_size=1, max_size=3))
    if family == "range" and all(n in IN_INTS for t in tilings for n in t):
        family = "in"
    return Value(",".join("x".join(map(str, t)) for t in tilings), family)


def _str_values(default, help_text: str, plausible: bool):
    words = _words(default, help_text)
    plain = [st.sampled_from(words).map(lambda t: Value(t, "in"))] if words else []
    if plausible:
        return st.one_of(*plain, _structured(words, plausible))
    return st.one_of(*plain, _structured(words, plausible),
                     st.sampled_from(MALFORMED_TEXT).map(lambda t: Value(t, "malformed")))


@st.composite
def _list_values(draw, plausible: bool):
    family = "in" if plausible else draw(st.sampled_from(("in", "range", "malformed")))
    if family == "malformed":
        return Value(draw(st.sampled_from(("a,b", "1;2", "1,x", "[1,2]", "1 2 3"))), family)
    ns = draw(st.lists(ints("in") if family == "in" else st.one_of(ints("in"), ints("range")), max_size=5))
    if family == "range" and all(n in IN_INTS for n in ns):
        family = "in"
    return Value(",".join(map(str, ns)), family)


def values(type_name: str, default, help_text: str, plausible: bool = False):
    """Values of an option; `plausible`: of the `in` family only."""
    if type_name == "int":
        return _int_values(plausible)
    if type_name == "bool":
        return _bool_values(plausible)
    if type_name == "float":
        return _float_values(plausible)
    if type_name == "str":
        return _str_values(default, help_text, plausible)
    if type_name.startswith("list<"):
        return _list_values(plausible)
    raise ValueError(f"no value strategy for option type {type_name}")


def _accepted(pass_cls, text: str) -> bool:
    try:
        pass_cls.from_options(text)
        return True
    except ValueError:  # registry.OptionError, or a check's own error
        return False


def declared_values(pass_cls, name: str, type_name: str, default, help_text: str):
    """Values option `name` of `pass_cls` declares it takes: its choices, else (ints, bools,
    lists) plausible ones the option check accepts, else (strings) its default and the words
    and examples its help text names that the check accepts."""
    field = next(f for f in dataclasses.fields(pass_cls) if f.name.replace("_", "-") == name)
    if field.metadata.get("choices"):
        return st.sampled_from([_show(c) for c in field.metadata["choices"]]).map(lambda t: Value(t, "in"))
    if type_name != "str":
        return values(type_name, default, help_text, plausible=True).filter(
            lambda v: _accepted(pass_cls, f"{name}={v.text}"))
    texts = [t for t in sorted({str(default), *_words(default, help_text), *_EXAMPLE.findall(help_text)})
             if _accepted(pass_cls, f"{name}={t}")]
    return st.sampled_from(texts).map(lambda t: Value(t, "in"))


def _show(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@st.composite
def option_sets(draw, pass_cls, plausible_only: bool = False) -> list[tuple[str, Value]]:
    """Some of the pass's options (each at most once) with random values; sometimes a wrong
    name. `plausible_only`: values the options declare they take, names all right."""
    opts = pass_cls.options()
    chosen = draw(st.lists(st.sampled_from(opts), unique_by=lambda o: o[0], max_size=len(opts))) if opts else []
    if plausible_only:
        out = [(name, draw(declared_values(pass_cls, name, tp, default, help_text)))
               for name, tp, default, _, help_text in chosen]
        assume(_accepted(pass_cls, options_text(out, " ")))  # values an option takes only with others
        return out
    out = [(name, draw(values(tp, default, help_text))) for name, tp, default, _, help_text in chosen]
    if not plausible_only and draw(st.integers(0, 9)) == 0:
        out.insert(draw(st.integers(0, len(out))), (draw(st.sampled_from(WRONG_NAMES)), Value("1", "malformed")))
    return out


def options_text(options: list[tuple[str, Value]], separator: str) -> str:
    return separator.join(f"{name}={v.text}" for name, v in options)
