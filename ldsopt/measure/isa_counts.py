"""Counts of the instructions that decide a gfx942 kernel's LDS and memory traffic, over the
whole kernel and per iteration of its main loop, read from the ISA (`isa.kernel_code`).

Counted: `v_mfma_*` by mnemonic (its shape and types), with the FLOPs of one wave's
instruction (2*M*N*K, times the blocks of a `_4b`/`_16b` form); `ds_read*`/`ds_write*` by
mnemonic, with the bytes one lane moves (`read2`/`write2`: two elements); other `ds_*` (lane
shuffles, atomics) by mnemonic; `global_*`/`buffer_*` loads and stores by mnemonic with the
bytes a lane moves, LDS-direct loads (`buffer_load_* ... lds`, `global_load_lds_*`) apart,
since they write LDS instead of registers; `s_waitcnt`, `s_barrier`, `v_perm_b32`.

The main loop. LLVM lays a loop out as a contiguous run from its header label to the branch
back to it (the latch), so every branch to an earlier label of the kernel closes a loop. An
innermost loop (no other loop's header inside it) is a candidate; the main loop is the one
with the most MFMA FLOPs, then the most global and LDS accesses, then the most instructions.
Its counts are per trip through the run, the instructions of a branch not taken included: an
estimate of one iteration, exact for a loop body without branches (the matmul K loops).
"""

from __future__ import annotations

import collections
import dataclasses
import re

from ldsopt.measure.isa import is_lds_direct

_MFMA_SHAPE = re.compile(r"_(\d+)x(\d+)x(\d+)(?:_?(\d+)b)?")
_BRANCH = re.compile(r"^s_(?:cbranch_\w+|branch)$")
# Bytes one lane moves, by the size suffix of a ds_/global_/buffer_ mnemonic.
_DS_BYTES = {"b128": 16, "b96": 12, "b64": 8, "b32": 4, "b16": 2, "u16": 2, "i16": 2, "b8": 1, "u8": 1, "i8": 1}
_MEM_BYTES = {"dwordx4": 16, "dwordx3": 12, "dwordx2": 8, "dword": 4, "short": 2, "ushort": 2, "sshort": 2,
              "byte": 1, "ubyte": 1, "sbyte": 1}


def mfma_flops(op: str) -> int:
    """FLOPs (or integer ops) of one wave's `v_mfma_*` instruction: 2*M*N*K per block."""
    m = _MFMA_SHAPE.search(op)
    if not m:
        raise ValueError(f"{op}: no MxNxK shape in the mnemonic")
    rows, cols, k, blocks = (int(x) if x else 1 for x in m.groups())
    return 2 * rows * cols * k * blocks


def mfma_type(op: str) -> str:
    """The input type of an MFMA mnemonic: f16, bf16, i8, f32, xf32, f64 or fp8 (fp8/bf8)."""
    tail = op.rsplit("_", 1)[-1]
    return "fp8" if tail in ("fp8", "bf8") else tail


def access_bytes(op: str) -> int | None:
    """Bytes one lane reads or writes with a ds_read/ds_write/global/buffer load or store;
    None for a mnemonic of no such size (an atomic without one, a lane shuffle)."""
    if op.startswith("ds_"):
        parts = op.split("_")
        size = next((_DS_BYTES[p] for p in reversed(parts) if p in _DS_BYTES), None)
        if size is None:
            return None
        return 2 * size if parts[1].startswith(("read2", "write2")) else size
    if "_d16" in op:
        return 2
    size = next((_MEM_BYTES[p] for p in reversed(op.split("_")) if p in _MEM_BYTES), None)
    return size


def _kind(op: str, operands: str) -> str | None:
    """The counted class of an instruction, or None."""
    if op.startswith("v_mfma"):
        return "mfma"
    if op.startswith(("ds_read", "ds_write")) and access_bytes(op):
        return "ds_read" if op.startswith("ds_read") else "ds_write"
    if op.startswith("ds_"):
        return "ds_other"
    if op.startswith(("global_", "buffer_")):
        if is_lds_direct(op, operands):
            return "lds_direct"
        if "_load" in op and "atomic" not in op:
            return "load"
        if "_store" in op:
            return "store"
        return "atomic"
    if op in ("s_waitcnt", "s_barrier", "v_perm_b32"):
        return op
    return None


@dataclasses.dataclass
class Counts:
    """The counted instructions of a run of code: per class, each mnemonic's count."""
    ops: dict[str, dict[str, int]] = dataclasses.field(default_factory=dict)  # class -> mnemonic -> n
    instructions: int = 0

    def add(self, op: str, operands: str) -> None:
        self.instructions += 1
        kind = _kind(op, operands)
        if kind:
            by_op = self.ops.setdefault(kind, {})
            by_op[op] = by_op.get(op, 0) + 1

    def count(self, kind: str) -> int:
        return sum(self.ops.get(kind, {}).values())

    def lane_bytes(self, kind: str) -> int:
        """Bytes one lane moves by the class's instructions (ds_read, load, lds_direct, ...)."""
        return sum(n * (access_bytes(op) or 0) for op, n in self.ops.get(kind, {}).items())

    def by_width(self, kind: str) -> dict[int, int]:
        """Instructions of the class by bytes per lane, widest first."""
        out: collections.Counter = collections.Counter()
        for op, n in self.ops.get(kind, {}).items():
            out[access_bytes(op) or 0] += n
        return dict(sorted(out.items(), reverse=True))

    @property
    def mfma_flops(self) -> int:
        """MFMA FLOPs of one wave through this code."""
        return sum(n * mfma_flops(op) for op, n in self.ops.get("mfma", {}).items())

    @property
    def global_wave_bytes(self) -> int:
        """Bytes one wave requests from global memory: loads (LDS-direct ones too) and stores."""
        return 64 * sum(self.lane_bytes(k) for k in ("load", "store", "lds_direct"))

    def as_dict(self) -> dict:
        return {"instructions": self.instructions, "ops": self.ops}


def count(code: list[tuple[str, str]]) -> Counts:
    out = Counts()
    for op, operands in code:
        if op != "label":
            out.add(op, operands)
    return out


def loops(code: list[tuple[str, str]]) -> list[tuple[int, int]]:
    """(header, latch) indices into `code` of each loop: a branch to a label before it."""
    where = {name: i for i, (op, name) in enumerate(code) if op == "label"}
    out = []
    for i, (op, operands) in enumerate(code):
        if _BRANCH.match(op):
            target = operands.split()[0] if operands else ""
            if target in where and where[target] < i:
                out.append((where[target], i))
    return out


@dataclasses.dataclass
class KernelCounts:
    whole: Counts
    loop: Counts | None   # one trip through the main loop; None without a loop
    loops: int            # loops found (innermost or not)


def analyze(code: list[tuple[str, str]]) -> KernelCounts:
    """The kernel's counts, and its main loop's (module docstring)."""
    found = loops(code)
    innermost = [(h, t) for h, t in found if not any(h < h2 <= t2 <= t and (h2, t2) != (h, t) for h2, t2 in found)]
    best = None
    for h, t in innermost:
        c = count(code[h:t + 1])
        key = (c.mfma_flops, sum(c.count(k) for k in ("load", "store", "lds_direct", "ds_read", "ds_write")),
               c.instructions)
        if best is None or key > best[0]:
            best = (key, c)
    return KernelCounts(count(code), best[1] if best else None, len(found))
