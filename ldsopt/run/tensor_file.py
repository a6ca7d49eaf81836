"""Tensors as the raw files lds-run's folders hold: element types, their numpy storage, and
float conversions. Standard library and numpy only (the replay machine reads them too).
"""

from __future__ import annotations

import dataclasses
import math
import os

import numpy as np

from ldsopt.cli import output_file

# IREE element type -> (numpy storage dtype, compare-in dtype). bf16 is stored as uint16.
DTYPES = {
    "f32": (np.float32, np.float64), "f16": (np.float16, np.float64), "bf16": (np.uint16, np.float64),
    "f64": (np.float64, np.float64), "i32": (np.int32, np.int64), "i16": (np.int16, np.int64),
    "i8": (np.int8, np.int64), "i64": (np.int64, np.int64), "i1": (np.bool_, np.int64),
}

FLOATS = ("f32", "f16", "bf16", "f64")


@dataclasses.dataclass
class Tensor:
    shape: list[int]
    dtype: str  # IREE element type name
    file: str

    @property
    def spec(self) -> str:
        return "x".join(map(str, self.shape + [self.dtype])) if self.shape else self.dtype

    def load(self, folder: str) -> np.ndarray:
        raw = np.fromfile(os.path.join(folder, self.file), dtype=DTYPES[self.dtype][0])
        return raw.reshape(self.shape)

    def save(self, folder: str, array: np.ndarray) -> None:
        output_file.write(os.path.join(folder, self.file), np.ascontiguousarray(array.astype(DTYPES[self.dtype][0])))


def nbytes(shape: list[int], dtype: str) -> int:
    """The size of a tensor's file."""
    return math.prod(shape) * np.dtype(DTYPES[dtype][0]).itemsize


def as_float64(a: np.ndarray, dtype: str) -> np.ndarray:
    if dtype == "bf16":
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return a.astype(DTYPES[dtype][1])


def bf16_bits(values: np.ndarray) -> np.ndarray:
    """float64 `values` rounded to bf16 (to nearest, ties to even; NaN stays NaN), as stored:
    the upper halves of f32 values."""
    with np.errstate(over="ignore"):
        bits = np.asarray(values, np.float64).astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = np.where(np.isnan(values), bits, bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def round_to(values: np.ndarray, dtype: str) -> np.ndarray:
    """`values` (float64) rounded to the float type `dtype`, back in float64: a value past the
    type's range becomes inf, as a kernel computing in that type would give."""
    if dtype == "bf16":
        return as_float64(bf16_bits(values), "bf16")
    with np.errstate(over="ignore"):
        return values.astype(DTYPES[dtype][0]).astype(np.float64)
