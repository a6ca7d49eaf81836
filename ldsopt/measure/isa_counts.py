"""Counts of the instructions that decide a gfx942 kernel's LDS and memory traffic, over the
whole kernel and per iteration of its main loop, read from the ISA (`isa.kernel_code`).

Counted: `v_mfma_*` by mnemonic (its shape and types), with the FLOPs of one wave's
instruction (2*M*N*K, times the blocks of a `_4b`/`_16b` form); `ds_read*`/`ds_write*` by
mnemonic, with the bytes one lane moves (`read2`/`write2`: two elements); other `ds_*` (lane
shuffles, atomics) by mnemonic; `global_*`/`buffer_*` loads and stores by mnemonic with the
bytes a lane moves, LDS-direct loads (`buffer_load_* ... lds`, `global_load_lds_*`) apart,
since they write LDS instead of registers; `s_waitcnt`, `s_barrier`, `v_perm_b32`.

The main loop, from the branch structure: the code splits into basic blocks at its labels
and after its branches, each flowing to its branch's target and, unless it ends in `s_branch`
or `s_endpgm`, to the next block. A branch (or fall-through) to a block that dominates it (is
on every path from the kernel's entry to it) is a loop's back edge, and the loop is the blocks
that reach that edge without passing its header: the natural loop, wherever LLVM lays its
blocks out (it may enter a rotated loop in its middle, or place the exit block before a block
that branches to it: no loop). An innermost loop (no other loop's header among its blocks)
is a candidate; the main loop is the one with the most MFMA FLOPs, then the most global and
LDS accesses, then the most instructions. Its counts are per trip through its blocks, those
of a branch not taken included: an estimate of one iteration, exact for a loop body without
branches (the matmul K loops).
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


def _blocks(code: list[tuple[str, str]]) -> tuple[list[tuple[int, int]], list[list[int]]]:
    """Basic blocks as (start, end) index ranges into `code` (a label starts one, a branch or
    `s_endpgm` ends one), and each block's successors."""
    starts = sorted({0} | {i for i, (op, _) in enumerate(code) if op == "label"}
                    | {i + 1 for i, (op, _) in enumerate(code[:-1]) if _BRANCH.match(op) or op == "s_endpgm"})
    spans = [(a, b) for a, b in zip(starts, starts[1:] + [len(code)])]
    index = {code[a][1]: n for n, (a, _) in enumerate(spans) if code[a][0] == "label"}
    succs = []
    for n, (a, b) in enumerate(spans):
        out, falls = [], True
        for op, operands in code[a:b]:
            if _BRANCH.match(op) and operands.split()[0] in index:
                out.append(index[operands.split()[0]])
                falls = falls and op != "s_branch"
            elif op == "s_endpgm":
                falls = False
        succs.append(out + ([n + 1] if falls and n + 1 < len(spans) else []))
    return spans, succs


def loops(code: list[tuple[str, str]]) -> list[list[tuple[int, int]]]:
    """Each natural loop (module docstring) as the (start, end) ranges of its blocks into
    `code`, its header's first."""
    spans, succs = _blocks(code)
    preds: list[list[int]] = [[] for _ in spans]
    for n, ss in enumerate(succs):
        for m in ss:
            preds[m].append(n)
    reachable, todo = set(), [0]
    while todo:
        n = todo.pop()
        if n not in reachable:
            reachable.add(n)
            todo += succs[n]
    dom = {n: set(reachable) for n in reachable}  # the blocks on every path from the entry to n
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for n in sorted(reachable - {0}):
            new = {n} | set.intersection(*(dom[p] for p in preds[n] if p in reachable))
            if new != dom[n]:
                dom[n], changed = new, True
    bodies: dict[int, set[int]] = {}  # header -> its loop's blocks (back edges to it merged)
    for latch in sorted(reachable):
        for header in succs[latch]:
            if header not in dom[latch]:
                continue  # not a back edge: its target does not dominate it
            body, todo = bodies.setdefault(header, {header}), [latch]
            while todo:  # the blocks that reach the latch without passing the header
                n = todo.pop()
                if n not in body:
                    body.add(n)
                    todo += preds[n]
    return [[spans[n] for n in sorted(body, key=lambda n: (n != h, n))] for h, body in sorted(bodies.items())]


@dataclasses.dataclass
class KernelCounts:
    whole: Counts
    loop: Counts | None   # one trip through the main loop; None without a loop
    loops: int            # loops found (innermost or not)


def analyze(code: list[tuple[str, str]]) -> KernelCounts:
    """The kernel's counts, and its main loop's (module docstring)."""
    found = loops(code)
    innermost = [body for body in found if not any(other[0] != body[0] and other[0] in body for other in found)]
    best = None
    for body in innermost:
        c = count([line for a, b in body for line in code[a:b]])
        key = (c.mfma_flops, sum(c.count(k) for k in ("load", "store", "lds_direct", "ds_read", "ds_write")),
               c.instructions)
        if best is None or key > best[0]:
            best = (key, c)
    return KernelCounts(count(code), best[1] if best else None, len(found))
