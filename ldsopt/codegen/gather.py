"""Table reads in a generic's body (gathers), for the passes that run the body on vectors along
one of its loops (`along`: the output's fastest dim, a row).

A body value is *uniform* when it is the same at every position along `along`: an input's
element where the input does not read `along`, a `linalg.index` of another loop, a constant (or
a value from outside the body), or an arith op or a `tensor.extract` of uniform values.
A `tensor.extract` of a loaded table (an embedding as torch-mlir lowers `aten.embedding`,
`table[index_cast(ids[i]), linalg.index 1]`; eager BERT's token types, `table[ids[pos[i]], j]`,
whose row index is itself read from a table) is
- uniform: every index uniform; read once, a scalar (an index of another read, or a value
  the body broadcasts);
- a row read: its last index is `linalg.index along` itself, the others uniform: V
  consecutive elements of the table's (contiguous) row, one vector read.
An extract whose indices vary along `along` otherwise (a scattered gather, a table read
transposed) is not matched (`match_reads` says why, `SCATTERED`): a vector of it would be V
reads; ldsopt-lower-elementwise then reads it element by element.

ldsopt-lower-elementwise computes the uniform ops once per vector, on scalars (`hoist`), then
clones the body's other ops onto vectors with those values broadcast (`vector_mapping`).
ldsopt-vector-distribute's fused row kernels (ldsopt/reduction/fused_rows.py, emit_rows.py)
match a map's body the same way, along the row, and hoist in two steps: the uniform table
reads and their indices once per row, each row read's other indices with the chunk of the row
it reads (`hoist`'s `needed` and `known`); they clone the body's other ops onto the chunk's
vectors, but for those whose values only table reads' indices use (`addresses`).

Indices are used as the program computes them, not clamped: IREE's own lowering (llvm-cpu,
the reference) loads at the computed address too, and an index out of a table's range is the
program's fault (PyTorch's checks, where it has them, come before).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from iree.compiler import ir
from iree.compiler.dialects import arith, vector

_SCALAR_DIALECTS = ("arith.",)  # integer arithmetic on indices; math ops stay on vectors
EXTRACT, INDEX = "tensor.extract", "linalg.index"


@dataclasses.dataclass
class TableReads:
    """What `match_reads` found in a generic's body."""

    uniform: list[ir.Operation]  # ops computed once per vector (on scalars), in body order
    rows: list[ir.Operation]     # extracts read as a vector along their table's row
    along: int                   # the loop the body is vectorized along

    def extracts(self) -> list[ir.Operation]:
        """Every table read: the uniform ones, then the row reads."""
        return [x for x in self.uniform if x.name == EXTRACT] + self.rows

    def row_index(self, extract: ir.Operation) -> list[ir.Value]:
        """A row read's uniform indices (its table's outer dims): the body values."""
        return list(extract.operands)[1:-1]


# Why `match_reads` refuses a table read whose indices vary along `along` otherwise than as
# its last index (a caller may still read it element by element).
SCATTERED = ("a tensor.extract at indices that vary along the output's fastest dim other than as the table's "
             "last index (a scattered gather)")


def _owner(value: ir.Value) -> ir.Operation | None:
    return value.owner.operation if isinstance(value, ir.OpResult) else None


def _index_dim(op: ir.Operation) -> int:
    return ir.IntegerAttr(op.attributes["dim"]).value


def match_reads(root: ir.Operation, along: int, varying: list[bool],
                is_table: Callable[[ir.Value], bool]) -> TableReads | str:
    """The body's uniform ops and row reads (module docstring), or why not: `varying[i]`, input
    i reads `along`; `is_table(v)`, v is a static tensor loaded from a binding. Ops other than arith,
    math, `linalg.index` and `tensor.extract` are the caller's to refuse."""
    block = root.regions[0].blocks[0]
    ops = [x.operation for x in block.operations]
    inside = set(block.arguments) | {r for op in ops for r in op.results}
    marked = {a for a, moves in zip(block.arguments, varying) if not moves}

    def uniform(value: ir.Value) -> bool:  # a value from outside the body is one
        return value in marked or value not in inside

    hoisted, rows = [], []
    for op in ops:
        operands = list(op.operands)
        if op.name == EXTRACT and not is_table(operands[0]):
            return "a tensor.extract of a tensor that is not a static one loaded from a binding"
        if op.name == INDEX and _index_dim(op) == along or op.name == EXTRACT and not all(map(uniform, operands[1:])):
            if op.name == EXTRACT:
                last = _owner(operands[-1]) if len(operands) > 1 else None
                if last is None or last.name != INDEX or _index_dim(last) != along or \
                        not all(map(uniform, operands[1:-1])):
                    return SCATTERED
                rows.append(op)
            continue
        if not op.regions and op.results and (op.name in (INDEX, EXTRACT) or op.name.startswith(_SCALAR_DIALECTS)) \
                and all(map(uniform, operands)):
            hoisted.append(op)
            marked.update(op.results)
    return TableReads(hoisted, rows, along)


def addresses(reads: TableReads, root: ir.Operation) -> list[ir.Operation]:
    """The uniform ops, and `linalg.index along`, whose values only table reads' indices use,
    directly or through other such ops (an unused one among them), in reverse body order: what a
    kernel that computes the table reads apart from the body need not compute on vectors."""
    ops = [x.operation for x in root.regions[0].blocks[0].operations]
    candidates = [op for op in ops if op in reads.uniform or op.name == INDEX and _index_dim(op) == reads.along]
    out: list[ir.Operation] = []
    for op in reversed(candidates):  # an op's users come after it
        if all(u.owner.operation.name == EXTRACT or u.owner.operation in out for r in op.results for u in r.uses):
            out.append(op)
    return out


def _computed_from(reads: TableReads, values: list[ir.Value], known: dict) -> list[ir.Operation]:
    """The uniform ops that compute `values`, directly or through other uniform ops, stopping at
    `known` values, in body order."""
    needed, stack = [], list(values)
    while stack:
        value = stack.pop()
        op = _owner(value)
        if value not in known and op is not None and op in reads.uniform and op not in needed:
            needed.append(op)
            stack.extend(op.operands)
    return [op for op in reads.uniform if op in needed]


def hoist(reads: TableReads, root: ir.Operation, args: list[ir.Value | None], positions: dict[int, ir.Value],
          load: Callable[[ir.Operation, list[ir.Value]], ir.Value], needed: list[ir.Value] | None = None,
          known: dict | None = None) -> dict:
    """The uniform ops cloned at the insertion point on scalars: body value -> its scalar.
    `args[i]`: input i's element (None for an input read along `along`, or one that no cloned op
    reads); `positions[d]`: the position along loop d (d other than `along`);
    `load(extract, indices)`: the table's element at `indices`. `needed`: only the ops that
    compute these body values (default: every uniform op); `known`: body values computed
    before (an earlier hoist's), not computed again and returned among the others."""
    block = root.regions[0].blocks[0]
    scalars = dict(known or {})
    scalars.update((a, x) for a, x in zip(block.arguments, args) if x is not None)
    get = lambda v: scalars.get(v, v)  # noqa: E731  (a value from outside the body: itself)
    for op in reads.uniform if needed is None else _computed_from(reads, needed, scalars):
        if op.name == INDEX:
            scalars[op.results[0]] = positions[_index_dim(op)]
        elif op.name == EXTRACT:
            scalars[op.results[0]] = load(op, [get(v) for v in list(op.operands)[1:]])
        else:
            new = ir.Operation.create(op.name, results=[r.type for r in op.results],
                                      operands=[get(v) for v in op.operands], attributes=dict(op.attributes))
            scalars.update(zip(op.results, new.results))
    return scalars


def vector_mapping(reads: TableReads, root: ir.Operation, scalars: dict, vectors: list[ir.Value | None], v: int,
                   read_row: Callable[[ir.Operation, list[ir.Value]], ir.Value],
                   positions: Callable[[], ir.Value]) -> dict:
    """For `clone_body` on vectors of `v` lanes (with no `args`: the inputs are in it): input
    i's `vectors[i]`, or where None (uniform), its scalar broadcast; each uniform value that a
    vectorized op (or the yield) reads, broadcast, the others (an address's arithmetic) None,
    not cloned; each row read's vector, `read_row(extract, its uniform indices as scalars)`,
    along the table's row from the vector's first position; `linalg.index along`,
    `positions()` (the vector's positions along it) where the body computes with it, else None
    (only a row read's last index)."""
    block = root.regions[0].blocks[0]
    scalar_users = reads.uniform + reads.rows
    vectorized = lambda r: any(u.owner.operation not in scalar_users for u in r.uses)  # noqa: E731

    def spread(r: ir.Value) -> ir.Value | None:
        return vector.broadcast(ir.VectorType.get([v], r.type), scalars[r]) if vectorized(r) else None

    mapping = {a: x if x is not None else spread(a) for a, x in zip(block.arguments, vectors)}
    for op in reads.uniform:
        mapping.update((r, spread(r)) for r in op.results)
    for op in reads.rows:
        mapping[op.results[0]] = read_row(op, [scalars.get(x, x) for x in reads.row_index(op)])
    for op in (x.operation for x in block.operations):
        if op.name == INDEX and _index_dim(op) == reads.along:
            mapping[op.results[0]] = positions() if vectorized(op.results[0]) else None
    return mapping


def loop_positions(op: ir.Operation, idx: list[ir.Value], v: int | None) -> dict:
    """For clone_body's mapping: each `linalg.index d` of `op`'s body -> the position along its
    loop d at `idx` (the loops' values): on vectors of `v` lanes along the last loop, each
    lane's there and `idx[d]` broadcast along the others; scalars where `v` is None."""
    out = {}
    for x in op.regions[0].blocks[0].operations:
        if x.operation.name != INDEX:
            continue
        d = ir.IntegerAttr(x.operation.attributes["dim"]).value
        out[x.operation.results[0]] = idx[d] if v is None else \
            lane_positions(idx[d], v, ir.IndexType.get()) if d == len(idx) - 1 else \
            vector.broadcast(ir.VectorType.get([v], ir.IndexType.get()), idx[d])
    return out


def lane_positions(first: ir.Value, v: int, etype: ir.Type) -> ir.Value:
    """The positions of a vector's `v` lanes from `first` (an index), as a vector of `etype`
    (an integer type or index)."""
    vtype = ir.VectorType.get([v], etype)
    start = first if isinstance(etype, ir.IndexType) else arith.index_cast(etype, first)
    steps = ir.DenseElementsAttr.get([ir.IntegerAttr.get(etype, i) for i in range(v)], type=vtype)
    return arith.addi(vector.broadcast(vtype, start), arith.constant(vtype, steps))
