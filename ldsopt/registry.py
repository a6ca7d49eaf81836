"""Pass base class, typed options and the lazy pass registry.

A pass is a frozen dataclass (after xDSL): its class variables name and describe it,
its fields are its options, typed, with defaults. `name{a=1,b=2,3,flag=true}` builds
one; MLIR's space-separated form `name{a=1 b=2,3}` is accepted too.

Passes are imported only when a pipeline names them, so `lds-opt --help` stays fast and
a pass with a bug does not break the others.
"""

from __future__ import annotations

import dataclasses
import importlib
import typing
from typing import ClassVar

from iree.compiler import ir


class PassError(Exception):
    """A matched case the pass cannot handle: reported as an MLIR error at `location`."""

    def __init__(self, location: ir.Location, message: str):
        super().__init__(message)
        self.location = location
        self.message = message


class OptionError(ValueError):
    """A pass name or option that does not parse; the pipeline reports it."""


@dataclasses.dataclass(frozen=True)
class ModulePass:
    """Base of every ldsopt pass. Subclasses set NAME and SUMMARY and implement run().

    Passes are anchored on `builtin.module` and walk what they need themselves: the
    Python bindings cannot nest a Python pass under another op (anchors/mlir-python.md).
    """

    NAME: ClassVar[str]
    SUMMARY: ClassVar[str]

    def run(self, module: ir.Operation) -> None:
        raise NotImplementedError

    @classmethod
    def options(cls) -> list[tuple[str, str, object, str]]:
        """(name, type name, default, help) for each option, for --list-passes."""
        hints = typing.get_type_hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            out.append((_option_name(f.name), _type_name(hints[f.name]), f.default, f.metadata.get("help", "")))
        return out

    @classmethod
    def from_options(cls, text: str) -> "ModulePass":
        """Builds the pass from the text between braces (may be empty)."""
        hints = typing.get_type_hints(cls)
        fields = {_option_name(f.name): f for f in dataclasses.fields(cls)}
        values: dict[str, object] = {}
        for key, raw in _split_options(text):
            if key not in fields:
                known = ", ".join(sorted(fields)) or "none"
                raise OptionError(f"pass '{cls.NAME}' has no option '{key}' (options: {known})")
            f = fields[key]
            values[f.name] = _convert(raw, hints[f.name], cls.NAME, key)
        return cls(**values)


def option(default, help: str):
    """A pass option: a dataclass field with a help text for --list-passes."""
    if isinstance(default, list):
        default = tuple(default)
    return dataclasses.field(default=default, metadata={"help": help})


def _option_name(field_name: str) -> str:
    return field_name.replace("_", "-")


def _type_name(tp) -> str:
    if typing.get_origin(tp) is tuple:
        return f"list<{typing.get_args(tp)[0].__name__}>"
    return tp.__name__


def _split_options(text: str) -> list[tuple[str, str]]:
    """'a=1,b=2,3 c=x' -> [('a','1'), ('b','2,3'), ('c','x')].

    A comma-separated piece without '=' continues the previous option's list.
    """
    out: list[list[str]] = []
    for word in text.replace(",", " , ").split():
        if word == ",":
            continue
        if "=" in word:
            key, _, val = word.partition("=")
            out.append([key.strip(), val.strip()])
        elif out:
            out[-1][1] += "," + word
        else:
            raise OptionError(f"option '{word}' has no value (write name=value)")
    return [(k, v) for k, v in out]


def _convert(raw: str, tp, pass_name: str, key: str):
    try:
        if typing.get_origin(tp) is tuple:
            (elem,) = typing.get_args(tp)[:1]
            return tuple(_convert_scalar(v, elem) for v in raw.split(",") if v != "")
        return _convert_scalar(raw, tp)
    except ValueError:
        raise OptionError(f"option '{key}' of pass '{pass_name}' expects {_type_name(tp)}, got '{raw}'") from None


def _convert_scalar(raw: str, tp):
    if tp is bool:
        if raw in ("true", "1"):
            return True
        if raw in ("false", "0"):
            return False
        raise ValueError(raw)
    return tp(raw)


# name -> "module:Class", imported on first use.
_REGISTRY: dict[str, str] = {
    "ldsopt-lower-elementwise": "ldsopt.passes.lower_elementwise:LowerElementwise",
    "ldsopt-vector-distribute": "ldsopt.passes.vector_distribute:VectorDistribute",
    "ldsopt-preload-transposed": "ldsopt.passes.preload_transposed:PreloadTransposed",
    "ldsopt-matmul-lds": "ldsopt.passes.matmul_lds:MatmulLds",
    "ldsopt-dtl-layout": "ldsopt.passes.dtl_layout:DtlLayout",
    "ldsopt-inthread-transpose": "ldsopt.passes.inthread_transpose:InthreadTranspose",
    "ldsopt-split-reduction": "ldsopt.passes.split_reduction:SplitReduction",
}


def register(name: str, target: str) -> None:
    """Adds a pass (for out-of-tree extensions and tests)."""
    _REGISTRY[name] = target


def pass_names() -> list[str]:
    return sorted(_REGISTRY)


def is_registered(name: str) -> bool:
    return name in _REGISTRY


def lookup(name: str) -> type[ModulePass]:
    module, _, attr = _REGISTRY[name].partition(":")
    cls = getattr(importlib.import_module(module), attr)
    assert cls.NAME == name, f"registry entry {name} points at {cls.NAME}"
    return cls
