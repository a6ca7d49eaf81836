"""Pass base class, typed options and the lazy pass registry.

A pass is a frozen dataclass (after xDSL): its class variables name and describe it,
its fields are its options, typed, with defaults. `name{a=1,b=2,3,flag=true}` builds
one; MLIR's space-separated form `name{a=1 b=2,3}` is accepted too, and so is a bare boolean
option (`name{flag}` is `flag=true`, as MLIR reads it). `textual()` prints a pass back in
MLIR's form, every option with its value, as MLIR prints its own passes in pipelines and
IR dumps.

Each option declares the values it takes (`option(min=, max=, choices=, check=)`), checked
whenever a pass is built, so a value out of range is an error that names the option and the
range before any pass runs, never an internal error or a silently different kernel; a limit
of the target (`at_most="max_threads"`) is checked against each dispatch's target, an error
located at the dispatch. `lds-opt --list-passes` lists the ranges.

Passes are found through the `ldsopt.passes` entry points (their table lives with them, in
`passes/__init__.py`) and imported only when a pipeline names them, so `lds-opt --help` stays fast and
a pass with a bug does not break the others.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import math
import typing
from typing import Callable, ClassVar

from iree.compiler import ir


class PassError(Exception):
    """A matched case the pass cannot handle: reported as an MLIR error at `location`."""

    def __init__(self, location: ir.Location, message: str):
        super().__init__(message)
        self.location = location
        self.message = message


class OptionError(ValueError):
    """A pass name or option that does not parse or is out of range; the pipeline reports
    it. `option` names the offending option where there is one."""

    def __init__(self, message: str, option: str | None = None):
        super().__init__(message)
        self.option = option


@dataclasses.dataclass(frozen=True)
class ModulePass:
    """Base of every ldsopt pass. Subclasses set NAME and SUMMARY and implement run().

    Passes are anchored on `builtin.module` and walk what they need themselves: the
    Python bindings cannot nest a Python pass under another op.
    """

    NAME: ClassVar[str]
    SUMMARY: ClassVar[str]

    def __post_init__(self):
        for f in dataclasses.fields(self):
            _check_value(getattr(self, "NAME", type(self).__name__), f, getattr(self, f.name))
        self.check_options()

    def check_options(self) -> None:
        """Checks that involve several options (raise OptionError); per-option ranges are
        declared in `option(...)`."""

    def check_target(self, tgt, location: ir.Location) -> None:
        """Raises PassError at `location` for an option past a limit of the target `tgt`
        (a `target.Target`) that the option declares with `at_most`."""
        for f in dataclasses.fields(self):
            attr = f.metadata.get("at_most")
            value = getattr(self, f.name)
            if attr is not None and value > getattr(tgt, attr):
                raise PassError(location, f"{self.NAME}: option '{_option_name(f.name)}={value}' is more than "
                                          f"the target's {_TARGET_LIMITS[attr]} ({getattr(tgt, attr)})")

    def run(self, module: ir.Operation) -> None:
        raise NotImplementedError

    @classmethod
    def options(cls) -> list[tuple[str, str, object, str, str]]:
        """(name, type name, default, allowed values, help) for each option, for --list-passes."""
        hints = typing.get_type_hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            out.append((_option_name(f.name), _type_name(hints[f.name]), f.default, _allowed(f),
                        f.metadata.get("help", "")))
        return out

    @classmethod
    def from_options(cls, text: str) -> "ModulePass":
        """Builds the pass from the text between braces (may be empty)."""
        hints = typing.get_type_hints(cls)
        fields = {_option_name(f.name): f for f in dataclasses.fields(cls)}
        values: dict[str, object] = {}
        flags = {_option_name(f.name) for f in dataclasses.fields(cls) if hints[f.name] is bool}
        for key, raw in _split_options(text, flags):
            if key not in fields:
                known = ", ".join(sorted(fields)) or "none"
                raise OptionError(f"pass '{cls.NAME}' has no option '{key}' (options: {known})", key)
            f = fields[key]
            values[f.name] = _convert(raw, hints[f.name], cls.NAME, key)
        return cls(**values)

    def textual(self) -> str:
        """`name{opt=value ...}`, every option sorted by name, as MLIR prints a pass with its
        options (`canonicalize{max-iterations=10 ...}`); `from_options` reads it back."""
        opts = sorted((_option_name(f.name), getattr(self, f.name)) for f in dataclasses.fields(self))
        shown = " ".join(f"{k}={','.join(map(_show, v)) if isinstance(v, tuple) else _show(v)}" for k, v in opts)
        return f"{self.NAME}{{{shown}}}" if shown else self.NAME


# Target attributes an option may be limited by, as the error names them.
_TARGET_LIMITS = {"max_threads": "threads per workgroup"}


def option(default, help: str, *, min: int | None = None, max: int | None = None, choices: tuple = (),
           check: Callable[[object], None] | None = None, at_most: str | None = None):
    """A pass option: a dataclass field with a help text for --list-passes and the values it
    takes: at least `min`, at most `max`, one of `choices` (each element, for a list), and
    whatever `check(value)` accepts (it raises ValueError with the reason otherwise; its
    docstring's first line describes the accepted values). `at_most` names a `target.Target`
    attribute the value may not exceed (checked per dispatch: ModulePass.check_target)."""
    if isinstance(default, list):
        default = tuple(default)
    assert at_most is None or at_most in _TARGET_LIMITS, at_most
    return dataclasses.field(default=default, metadata={"help": help, "min": min, "max": max, "choices": choices,
                                                        "check": check, "at_most": at_most})


def _allowed(f: dataclasses.Field) -> str:
    """The values option `f` takes, as --list-passes and the errors state them."""
    m = f.metadata
    parts = []
    if m.get("choices"):
        parts.append(" | ".join(_show(c) for c in m["choices"]))
    if m.get("min") is not None and m.get("max") is not None:
        parts.append(f"{m['min']}..{m['max']}")
    elif m.get("min") is not None:
        parts.append(f">= {m['min']}")
    elif m.get("max") is not None:
        parts.append(f"<= {m['max']}")
    if m.get("at_most"):
        parts.append(f"at most the target's {_TARGET_LIMITS[m['at_most']]}")
    if m.get("check") is not None and m["check"].__doc__:
        parts.append(m["check"].__doc__.strip().split("\n")[0].rstrip("."))
    return ", ".join(parts)


def _show(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _check_value(pass_name: str, f: dataclasses.Field, value) -> None:
    m = f.metadata
    elems = value if isinstance(value, tuple) else (value,)
    bad = (m.get("choices") and any(v not in m["choices"] for v in elems)) \
        or (m.get("min") is not None and any(v < m["min"] for v in elems)) \
        or (m.get("max") is not None and any(v > m["max"] for v in elems))
    reason = ""
    if not bad and m.get("check") is not None:
        try:
            m["check"](value)
        except ValueError as e:
            bad, reason = True, f": {e}"
    if bad:
        shown = ",".join(map(_show, value)) if isinstance(value, tuple) else _show(value)
        name = _option_name(f.name)
        raise OptionError(f"option '{name}' of pass '{pass_name}' takes {_allowed(f)}; got '{shown}'{reason}", name)


def _option_name(field_name: str) -> str:
    return field_name.replace("_", "-")


def _type_name(tp) -> str:
    if typing.get_origin(tp) is tuple:
        return f"list<{typing.get_args(tp)[0].__name__}>"
    return tp.__name__


def _split_options(text: str, flags: set[str] = frozenset()) -> list[tuple[str, str]]:
    """'a=1,b=2,3 c=x' -> [('a','1'), ('b','2,3'), ('c','x')].

    A word without '=' that names a boolean option in `flags` is that option set to true
    ('mma' -> ('mma', 'true')); any other comma-separated piece without '=' continues the
    previous option's list.
    """
    out: list[list[str]] = []
    for word in text.replace(",", " , ").split():
        if word == ",":
            continue
        if "=" in word:
            key, _, val = word.partition("=")
            out.append([key.strip(), val.strip()])
        elif word in flags:
            out.append([word, "true"])
        elif out:
            out[-1][1] += "," + word
        else:
            raise OptionError(f"option '{word}' has no value (write name=value)", word)
    return [(k, v) for k, v in out]


def _convert(raw: str, tp, pass_name: str, key: str):
    try:
        if typing.get_origin(tp) is tuple:
            (elem,) = typing.get_args(tp)[:1]
            return tuple(_convert_scalar(v, elem) for v in raw.split(",") if v != "")
        return _convert_scalar(raw, tp)
    except ValueError:
        raise OptionError(f"option '{key}' of pass '{pass_name}' expects {_type_name(tp)}, got '{raw}'", key) from None


def _convert_scalar(raw: str, tp):
    if tp is bool:
        if raw in ("true", "1"):
            return True
        if raw in ("false", "0"):
            return False
        raise ValueError(raw)
    value = tp(raw)
    if tp is float and not math.isfinite(value):  # nan passes every bound check
        raise ValueError(raw)
    return value


# The group under which a package lists its passes: an entry point whose value is a dict
# {pass name: "module:Class"} (ldsopt's own is `ldsopt.passes:PASSES`). The library never
# imports a pass; the table is read on first use and each class on first lookup.
ENTRY_POINT_GROUP = "ldsopt.passes"


@functools.cache
def _table() -> dict[str, str]:
    from importlib.metadata import entry_points
    table: dict[str, str] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        for name, where in ep.load().items():
            if table.setdefault(name, where) != where:
                raise OptionError(f"pass '{name}' is registered twice: {table[name]} and {where}")
    return table


def pass_names() -> list[str]:
    return sorted(_table())


def is_registered(name: str) -> bool:
    return name in _table()


def lookup(name: str) -> type[ModulePass]:
    module, _, attr = _table()[name].partition(":")
    cls = getattr(importlib.import_module(module), attr)
    assert cls.NAME == name, f"registry entry {name} points at {cls.NAME}"
    return cls
