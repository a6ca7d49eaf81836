"""The matmul kernel's output (emit.py): each thread's accumulator pieces stored along N, a
loaded init added, the fused consumer applied (its other operands read before the K loop where
they fit EARLY_READ_BYTES of registers), directly or through the output stage's LDS tile
(output_stage.py); and the fused producers' and consumers' elementwise bodies on vectors at an
index (`body_at`), which the operand copies (copy.py) run too. The scheme (emit_fma.py,
emit_mma.py) says where the pieces are (`Emitter.output_pieces`, `output_origin`,
`output_local`, `flat`)."""

from __future__ import annotations

import dataclasses

from iree.compiler import ir
from iree.compiler.dialects import arith, memref, vector

from ldsopt.codegen import gather
from ldsopt.codegen.elementwise import clone_body
from ldsopt.codegen.kernel import LDS_ALIGNMENT, global_alignment, lds_alloc, read_vector, write_vector
from ldsopt.ir_types import element_bits
from ldsopt.layout import index_expr
from ldsopt.matmul import chunk_stats, output_stage, quad_stores
from ldsopt.matmul.match import BroadcastInit
from ldsopt.matmul.row_stats import RowValue

# Registers (bytes per thread) the epilogue's early operand reads may hold through the K loop:
# 32 registers, a 64x64 f16 tile's residual and bias on 128 threads.
EARLY_READ_BYTES = 128


def along_last(x: tuple, rank: int) -> bool:
    """Whether an elementwise body's input `x` (binding, loops) has the last of the body's
    `rank` loops as its last dim (it is read as a vector along it, else as a broadcast scalar)."""
    return bool(x[1]) and x[1][-1] == rank - 1


def input_read(x: tuple, buf: ir.Value, idx: list[ir.Value], vtype: ir.VectorType, align: int = 0) -> ir.Value:
    """Input `x` (binding, loops) of an elementwise body at `idx` (the body's loops' values), as
    `vtype` along the last loop: a vector read (of `align` bytes of alignment) where that loop
    is the input's last dim; a load a lane where it is another of its dims (an input read
    transposed); else the scalar at its loops, broadcast. A row value the kernel computes
    (row_stats.RowValue) is read from the kernel's LDS array, `buf` its reader."""
    if isinstance(x[0], RowValue):
        return buf.read(x[0].result, idx[x[1][-1]], vtype)
    last = len(idx) - 1
    if last in x[1] and not along_last(x, len(idx)):
        lanes = [idx[:last] + [arith.addi(idx[last], arith.constant(idx[last].type, lane)) if lane else idx[last]]
                 for lane in range(vtype.shape[0])]
        return vector.from_elements(vtype, [memref.load(buf, [at[i] for i in x[1]]) for at in lanes])
    at = [idx[i] for i in x[1]]
    return read_vector(vtype, buf, at, align) if along_last(x, len(idx)) \
        else vector.broadcast(vtype, memref.load(buf, at))


def body_at(op: ir.Operation, inputs: list, mems: list, idx: list[ir.Value], width: int,
            value: ir.Value | None = None, early: list | None = None, backend: str | None = None) -> list[ir.Value]:
    """Elementwise `op`'s body on vectors of `width` along the last loop at `idx` (its loops'
    values; a `linalg.index` is the position there), its inputs read by `input_read` from
    `mems` (with their alignment stated for `backend` where given: `idx`'s last loop at a
    multiple of `width`) or given by `early` (read before); a None input is `value`. Every
    result's vector, in order."""
    args = []
    for pos, (x, buf) in enumerate(zip(inputs, mems)):
        vtype = None if x is None else ir.VectorType.get([width], x[0].tensor_type.element_type)
        aligned = backend and x is not None and not isinstance(x[0], RowValue)
        args.append(value if x is None else early[pos] if early is not None and early[pos] is not None else
                    input_read(x, buf, idx, vtype, global_alignment(buf, width, backend) if aligned else 0))
    return clone_body(op, args, width, gather.loop_positions(op, idx, width))


class Offsets:
    """The output's m and n at offsets from (m0, n0), each made once (so that the early
    reads of a bias shared by several output vectors are one read)."""

    def __init__(self, em, m0: ir.Value, n0: ir.Value):
        self._em = em
        self._at = {"m": {0: m0}, "n": {0: n0}}

    def _get(self, dim: str, off: int) -> ir.Value:
        known = self._at[dim]
        if off not in known:
            known[off] = self._em.offset(known[0], off)
        return known[off]

    def m(self, dm: int) -> ir.Value:
        return self._get("m", dm)

    def n(self, dn: int) -> ir.Value:
        return self._get("n", dn)


class OutputWriter:
    """Stores the accumulators of the kernel `em` (an Emitter, whose `out`, `init`, `batch`,
    `origin`, `epilogue_mem` and output stage it reads)."""

    def __init__(self, em):
        self.em = em
        self.early = None

    def alloc_stage(self) -> ir.Value:
        """The output stage's LDS tile, its layout recorded on the alloc (`ldsopt.output_stage`)."""
        st = self.em.output_stage
        elem = ir.MemRefType(self.em.out.type).element_type
        buf = lds_alloc(list(st.shape), elem, max(LDS_ALIGNMENT, st.alignment))
        i64 = ir.IntegerType.get_signless(64)
        buf.owner.attributes[output_stage.ATTR] = ir.DictAttr.get(
            {"pad": ir.IntegerAttr.get(i64, st.pad), "vec": ir.IntegerAttr.get(i64, st.vec)})
        return buf

    def store_all(self, acc: list[ir.Value]) -> None:
        offsets, tma_store = self.offsets(), self.em.tma_store
        if tma_store is not None:  # the tile through the copy engine's stage, part by part
            for part in range(tma_store.parts):
                tma_store.free()
                for i, value in enumerate(acc):
                    self.store_accumulator(i, value, offsets, part)
                tma_store.finish(self.em.last_tile, self.copy_out, part)
            return
        out_bytes = element_bits(ir.MemRefType(self.em.out.type).element_type) // 8
        row_align = self.global_align(self.em.out, quad_stores.STORE_BYTES // out_bytes)
        groups = quad_stores.plan(self.em, out_bytes, row_align)
        # Chunk statistics of an unstaged tile are summed from the stored values (registers).
        kept = [] if self.em.p.chunk_stats and self.em.output_stage is None else None
        if groups:
            self.store_quads(acc, offsets, groups, kept)
        else:
            for i, value in enumerate(acc):
                self.store_accumulator(i, value, offsets, kept=kept)
        if kept is not None:
            chunk_stats.emit_registers(self.em, kept)
        self.finish()

    def store_quads(self, acc: list[ir.Value], offsets: tuple, groups: list[quad_stores.Group],
                    kept: list | None = None) -> None:
        """Stores the accumulators 16 bytes a lane, each group's pieces exchanged among the
        quad's lanes (quad_stores.py): their values as `store_piece` makes them (each with its
        offsets added to `kept`, if given)."""
        em, (at, _, _) = self.em, offsets
        flats = [em.flat(value) for value in acc]
        g = len(groups[0].pieces)
        quads = quad_stores.QuadStores(em, g)
        origin = quads.quad_origin(at.n(0))
        width = quad_stores.PIECE
        for group in groups:
            values = []
            for j, (i, first) in enumerate(group.pieces):
                dn = group.dn + j * width * quad_stores.QUAD
                piece = vector.extract_strided_slice(ir.VectorType.get([width], em.acc_type), flats[i], [first],
                                                     [width], [1])
                values.append(self.piece_value(piece, em.output_index(at.m(group.dm), at.n(dn)),
                                               self.early_reads(width, group.dm, dn)))
                if kept is not None:
                    kept.append((values[-1], group.dm, dn))
            n = quads.column(origin, group.dn)
            self.write(quads.exchange(values), at.m(group.dm), n, g * width)

    def offsets(self) -> tuple[Offsets, Offsets | None, dict[int, list[tuple[int, int, int, int]]]]:
        """Where this thread's output pieces go (in the output, and in the output stage if
        any), and each accumulator's pieces of `output_pieces`."""
        em = self.em
        pieces: dict[int, list[tuple[int, int, int, int]]] = {}
        for i, *piece in em.output_pieces():
            pieces.setdefault(i, []).append(tuple(piece))
        return (Offsets(em, *em.output_origin()),
                None if em.output_stage is None else Offsets(em, *em.output_local()), pieces)

    def store_accumulator(self, i: int, value: ir.Value, offsets: tuple, part: int | None = None,
                          kept: list | None = None) -> None:
        """Stores accumulator `i` (holding `value`): its pieces, at `offsets` (`offsets()`);
        with a `part`, only that part's of the TMA stores' stage (tma_store.py), at its columns;
        with `kept`, unstaged, each stored vector and its offsets added to it (`store_kept`)."""
        at, local, pieces = offsets
        flat = self.em.flat(value)
        for first, width, dm, dn in pieces.get(i, []):
            shift = 0  # from the piece's column in the tile to its column in the stage
            if part is not None:
                if self.em.tma_store.part_of(dn, width) != part:
                    continue
                shift = part * self.em.tma_store.cols - self.em.tma_store.stage_col(part)
            piece = flat if width == ir.VectorType(flat.type).shape[0] else vector.extract_strided_slice(
                ir.VectorType.get([width], self.em.acc_type), flat, [first], [width], [1])
            if kept is not None:
                kept.append((self.store_kept(piece, at.m(dm), at.n(dn), self.early_reads(width, dm, dn)), dm, dn))
                continue
            self.store_piece(piece, at.m(dm), at.n(dn), self.early_reads(width, dm, dn),
                             local and (local.m(dm), local.n(dn - shift)))

    def finish(self) -> None:
        """After every accumulator is stored: the output stage's copy out, if there is one."""
        if self.em.output_stage is not None:
            self.copy_out()

    def copy_out(self, part: int = 0) -> None:
        """The staged output tile (or, through the TMA stores' stage, the columns of its `part`)
        from LDS to the output, `vec` elements a copy (guarded past M and N, and past the tile in
        a last round the threads do not fill)."""
        em = self.em
        st, k, col0, n0 = em.output_stage, em.k, 0, em.origin["n"]
        if em.tma_store is not None:  # the part's buffer, at the part's columns of the output
            st = dataclasses.replace(st, cols=em.tma_store.cols)
            col0, n0 = em.tma_store.stage_col(part), em.offset(n0, part * em.tma_store.cols)
        em.barrier()
        if em.p.chunk_stats:  # from the staged tile (never through the TMA stores' stage)
            chunk_stats.emit(em)
        vtype = ir.VectorType.get([st.vec], ir.MemRefType(em.out.type).element_type)
        c = index_expr.var("c")
        for j in range(st.copies):
            chunk = em.offset(em.tid, st.threads * j)
            row, col = k.index(list(st.copy_origin(c)), c=chunk)
            m, n = arith.addi(em.origin["m"], row), arith.addi(n0, col)
            last = st.threads * (j + 1) > st.chunks
            with em.guard(self.ragged(m, n) + ([(chunk, st.chunks)] if last else [])):
                value = read_vector(vtype, em.out_lds, self.stage_indices(row, em.offset(col, col0)),
                                    self.stage_align(st.vec))
                self.write(value, m, n, st.vec)

    def stage_indices(self, row: ir.Value, col: ir.Value) -> list[ir.Value]:
        placed = self.em.output_stage.address_map.place(index_expr.var("row"), index_expr.var("col"))
        return self.em.k.index(list(placed), row=row, col=col)

    def stage_align(self, n: int) -> int:
        """`Emitter.lds_alignment` of an output-stage access of n elements (the pads keep every
        row a multiple of the widest access)."""
        em = self.em
        return em.lds_alignment(n, element_bits(ir.MemRefType(em.out.type).element_type) // 8, em.output_stage.shape)

    def early_reads(self, width: int, dm: int, dn: int) -> list | None:
        """The epilogue inputs' reads made before the K loop for the output vector of `width`
        at offsets (dm, dn) (None for an input read at the store), or None without them."""
        return [self.early.get(key) for key in self.epilogue_keys(width, dm, dn)] if self.early else None

    def epilogue_keys(self, width: int, dm: int, dn: int) -> list[tuple]:
        """The key of each epilogue input's read for the output vector of `width` at offsets
        (dm, dn): the input, the offsets along the dims it has, the width (None for the
        contraction's result, which is not read, and for the row values the kernel computes after
        the K loop)."""
        dims = self.em.output_groups()
        offset = {"b": 0, "m": dm, "n": dn}
        return [None if x is None or isinstance(x[0], RowValue) else (pos, tuple(offset[dims[i]] for i in x[1]), width)
                for pos, x in enumerate(self.em.p.epilogue.inputs)]

    def read_epilogue_early(self) -> None:
        """Sets `early`: the epilogue's operand reads of every output vector, emitted before the
        K loop, so that their latency hides behind the loop instead of stalling the stores after
        it (a grid of about one tile per CU, such as a BERT projection's, cannot hide one memory
        round trip per workgroup behind other workgroups); each distinct read once (a bias
        row's vector serves every output vector of its n). None where the epilogue reads no
        operand, or where the reads would hold more than EARLY_READ_BYTES of registers per
        thread through the loop: the epilogue then reads at the store."""
        em = self.em
        if not em.early_epilogue or not em.p.epilogue or all(x is None for x in em.p.epilogue.inputs):
            return
        reads = {}
        for _, _, width, dm, dn in em.output_pieces():
            for key in self.epilogue_keys(width, dm, dn):
                if key is not None:
                    reads.setdefault(key, (dm, dn))
        inputs = em.p.epilogue.inputs
        rank = len(em.output_groups())
        held = sum((width if rank - 1 in inputs[pos][1] else 1)
                   * element_bits(inputs[pos][0].tensor_type.element_type) // 8 for pos, _, width in reads)
        if held > EARLY_READ_BYTES:
            return
        at = Offsets(em, *em.output_origin())
        early = {}
        for (pos, offsets, width), (dm, dn) in reads.items():
            m, n = at.m(dm), at.n(dn)
            vtype = ir.VectorType.get([width], inputs[pos][0].tensor_type.element_type)
            idx = em.output_index(m, n)
            mem = em.epilogue_mem[pos]
            early[(pos, offsets, width)] = em.or_zero(  # calls the read at once, under the guard
                self.ragged(m, n), vtype,
                lambda: input_read(inputs[pos], mem, idx, vtype, self.global_align(mem, width)))
        self.early = early

    def ragged(self, m: ir.Value, n: ir.Value) -> list[tuple[ir.Value, int | ir.Value]]:
        """The guards of an output vector at (m, n): M and N where the tiles do not divide them,
        and a dynamic M or N always (against its run-time value)."""
        p, t = self.em.p, self.em.pl.tiling
        return [(x, p.extent(dim)) for dim, x, tile in (("m", m, t.bm), ("n", n, t.bn)) if p.ragged(dim, tile)]

    def store_piece(self, piece: ir.Value, m: ir.Value, n: ir.Value, early: list | None = None,
                    staged: tuple[ir.Value, ir.Value] | None = None) -> None:
        """Stores a vector of the output along N at (m, n), adding the loaded init if any and
        applying the epilogue if any (`early`: its inputs' reads made before the K loop), to
        the output or, where `staged` gives its (row, col) in the tile, to the output stage;
        guarded where the tiles do not divide M or N (vector widths divide N)."""
        em = self.em
        idx = em.output_index(m, n)
        width = ir.VectorType(piece.type).shape[0]
        with em.guard(self.ragged(m, n)):
            value, *extra = self.piece_values(piece, idx, early)
            if staged is None:
                self.write(value, m, n, width)
                # The consumer's further results (no output stage, quad or TMA stores with them).
                for (b, dims), v in zip(em.p.epilogue.extra if extra else (), extra):
                    self.write_to(b.memref(), dims, v, m, n, width)
            else:
                write_vector(value, em.out_lds, self.stage_indices(*staged), self.stage_align(width))

    def store_kept(self, piece: ir.Value, m: ir.Value, n: ir.Value, early: list | None) -> ir.Value:
        """`store_piece` to the output, the stored vector made outside the guard (zeros past M
        or N) and returned, so that every lane holds one for chunk_stats.emit_registers."""
        em = self.em
        width = ir.VectorType(piece.type).shape[0]
        ragged = self.ragged(m, n)
        value = em.or_zero(ragged, ir.VectorType.get([width], ir.MemRefType(em.out.type).element_type),
                           lambda: self.piece_value(piece, em.output_index(m, n), early))
        with em.guard(ragged):
            self.write(value, m, n, width)
        return value

    def piece_value(self, piece: ir.Value, idx: list[ir.Value], early: list | None) -> ir.Value:
        """What a piece of the accumulator at `idx` stores to the output (`piece_values`' first)."""
        return self.piece_values(piece, idx, early)[0]

    def piece_values(self, piece: ir.Value, idx: list[ir.Value], early: list | None) -> list[ir.Value]:
        """What a piece of the accumulator at `idx` stores: the loaded init added, rounded to
        the operands' type where the contraction's result is, the epilogue applied (each of its
        results: the output's first, then `Epilogue.extra`'s)."""
        em = self.em
        width = ir.VectorType(piece.type).shape[0]
        value = piece if em.init is None else em.add(piece, self.init_vector(piece.type, idx, width))
        if em.p.rounded:  # the contraction's result, in the operands' 16-bit type
            value = arith.truncf(ir.VectorType.get([width], em.p.elem_type), value)
        return self.epilogue(value, idx, early) if em.p.epilogue else [value]

    def init_vector(self, vtype: ir.VectorType, idx: list[ir.Value], width: int) -> ir.Value:
        """The loaded init at `idx` as `vtype` (the accumulator's), extended from a rounded
        result's 16-bit type; a broadcast one (match.BroadcastInit) read at its dims, the same
        for the piece's elements where it does not have n."""
        em = self.em
        elem = ir.MemRefType(em.init.type).element_type
        reads = em.p.init.reads if isinstance(em.p.init, BroadcastInit) else None
        if reads is not None and (not reads or reads[-1] != len(idx) - 1):
            value = vector.broadcast(ir.VectorType.get([width], elem), memref.load(em.init, [idx[i] for i in reads]))
        else:
            at = idx if reads is None else [idx[i] for i in reads]
            value = read_vector(ir.VectorType.get([width], elem), em.init, at, self.global_align(em.init, width))
        return value if elem == vtype.element_type else arith.extf(vtype, value)

    def write(self, value: ir.Value, m: ir.Value, n: ir.Value, width: int) -> None:
        """Writes a vector of the output along N at (m, n): at `output_index`, in the epilogue's
        result's dim order where there is one; lane by lane where that order does not put the
        vector's dim last (a transposed store: each lane's element at its own output index)."""
        em = self.em
        if not em.p.epilogue:
            write_vector(value, em.out, em.output_index(m, n), self.global_align(em.out, width))
            return
        self.write_to(em.out, em.p.epilogue.out_dims, value, m, n, width)

    def write_to(self, buf: ir.Value, dims: tuple[int, ...], value: ir.Value, m: ir.Value, n: ir.Value,
                 width: int) -> None:
        """`write` of an epilogue result stored in `buf` with its dims' loops `dims`."""
        em = self.em
        idx = em.output_index(m, n)
        if dims[-1] == len(idx) - 1:
            write_vector(value, buf, [idx[i] for i in dims], self.global_align(buf, width))
            return
        for lane in range(width):
            at = em.output_index(m, em.offset(n, lane))
            memref.store(vector.extract(value, [], [lane]), buf, [at[i] for i in dims])

    def global_align(self, buf: ir.Value, n: int) -> int:
        """The alignment to state on a global access of `n` elements along N (its index along
        N is a multiple of n: pieces start at multiples of their width)."""
        return global_alignment(buf, n, self.em.k.target.backend)

    def epilogue(self, value: ir.Value, idx: list[ir.Value], early: list | None = None) -> list[ir.Value]:
        """The epilogue's body on vectors along N at `idx` (b?, m, n), `value` standing for the
        contraction's result: each of its results."""
        em = self.em
        return body_at(em.p.epilogue.op, em.p.epilogue.inputs, em.epilogue_mem, idx,
                       ir.VectorType(value.type).shape[0], value, early, em.k.target.backend)
