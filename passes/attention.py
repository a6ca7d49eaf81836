"""ldsopt-attention: an attention dispatch becomes one flash-attention kernel.

Contract.
- Matches the dispatch IREE 3.13 forms around an `iree_linalg_ext.attention` (PyTorch's
  `scaled_dot_product_attention` through the torch importers, or ldsopt-raise-attention's
  raising of an ONNX graph's chain): `iree_linalg_ext.online_attention` from fills, then the
  generic that normalizes its accumulator (ldsopt/attention/match.py has the form and the
  semantics). Taken: any batch and query-row loops (grouped-query attention: K and V with
  fewer heads than Q, read once per group, not repeated), Q, K, V of f16, bf16 or f32 with
  the head dims innermost (V: or its keys, V^T, on the FMA and mma.sync kernels), each loaded whole or as a
  static slice of a binding (offsets and sizes, unit strides, rows aligned to 16-byte
  vectors: PyTorch's packed QKV), the scale as a constant or a loaded one-element tensor, an
  optional mask (float, added; i1, stored as i8 by IREE: keep where 1) indexed by any of the
  batch, query-row and key loops (broadcast over the others), loaded or computed in the
  dispatch by an elementwise generic of arith, math and `linalg.index` on loaded tensors
  (evaluated at each score), a score region of arith and math ops and
  `iree_linalg_ext.index` (a causal one, `select(k2 > m, -inf, s)`, or a mask computed from
  its indices alone as `select(k2 > m, c, 0)` with c at most -1e4, skips the key tiles past
  the diagonal and is applied only on those across it), and the output in any order of its
  dims with the value dim innermost, written by the normalizing generic or by a copy of it in
  another dim order.
- Dynamic query rows and keys (their extents read at run time, `lds-run --keep-dynamic`:
  PyTorch exports of a dynamic sequence), with the head dims, the value dim and the batch and
  heads static: planned for NOMINAL_EXTENT of each (ldsopt-matmul-lds's), always treated
  as ragged (rows past M computed on zeros and not stored, keys past K2 -inf and read as zeros
  or clamped), the key tiles ceil(K2 / BN) and the query tiles launched ceil(M / BM) counted
  at run time (the count region computes them from the workload); by every kernel (FMA,
  mma.sync, wgmma, MFMA), causal too; a V held keys innermost of a dynamic key count by the
  FMA kernel (mma.sync's 16-byte copies along its rows would need them aligned; IREE 3.13
  cannot compile it). ldsopt-split-attention leaves them unsplit.
- Emits one kernel (ldsopt/attention/emit.py): one workgroup per (grid dims, query tile), Q in
  registers, K and V tiles through LDS, the online softmax in f32 (base 2, the scale folded
  into Q), the output normalized and stored once. The scheme: ldsopt/attention/plan.py.
- The split-KV form (ldsopt-split-attention): the partial attentions of key chunks, their
  accumulator, running max and sum stored as they are (the FMA kernel, a workgroup per chunk
  and group of rows), and the combine dispatch after them (ldsopt/attention/combine.py: a
  short reduction run in order per thread, then its elementwise consumer).
- On sm_90a (`--target cuda-sm90a`) Hopper's wgmma kernel (ldsopt/attention/emit_wgmma.py) takes
  what plan.wgmma_refusal allows (f16, bf16; head and value dims 64 or 128; V's value dim
  innermost; any mask or region; not with the `mma-*` options; `wgmma=false` keeps mma.sync,
  `wgmma-warpgroups` fixes its warpgroups of rows a workgroup and `wgmma-kv-splits` the
  warpgroups on one warpgroup's rows, each taking every other key tile (the plan's where the
  rows are too few for two warpgroups of rows an SM); each tile's products run in turn,
  `wgmma-overlap=true` runs a tile's P V under the next tile's softmax instead, which measured
  slower on the H200: bench/results/cuda-attention/); the others keep mma.sync (or FMA), with
  the reason on the dispatch (`ldsopt.wgmma_refused = "..."`, as ldsopt-matmul-lds records it).
- Options `mma-*` fix the mma.sync kernel's shape (plan.MmaKnobs: warps, rows per warp, keys
  a tile, LDS stages, padded or swizzled LDS rows; 0 / auto: the plan's choice), so that
  variants can be timed side by side; a dispatch the mma.sync kernel would take but for them
  is an error, not a silent fallback. gfx942's MFMA and the FMA kernel do not read them.
- Left to IREE, with the reason as a remark: dispatches of another form (several attention
  ops, fused producers or consumers other than the above, a mask or region the contract does
  not take, other element types, head dims not innermost, slices of dynamic offsets, strides
  or misaligned rows, dynamic extents other than the query rows and keys, or not computed from
  the workload), and a V^T that a matrix-core kernel would take with V the other way but not
  as it is (gfx942's MFMA kernel; mma.sync where its 16-byte copies do not divide the keys):
  IREE's own kernel uses the matrix cores there. A matched dispatch without a GPU target is an
  error.
"""

from __future__ import annotations

import dataclasses

from iree.compiler import ir

from ldsopt.attention import combine
from ldsopt.attention import match as attention_match
from ldsopt.attention.emit_fma import FmaEmitter
from ldsopt.attention.emit_mfma import MfmaEmitter
from ldsopt.attention.emit_mma import MmaEmitter
from ldsopt.attention.emit_wgmma import WgmmaEmitter
from ldsopt.attention.plan import MmaKnobs, WgmmaKnobs, matrix_cores_decline_v_keys_inner, plan, wgmma_refusal
from ldsopt.codegen.kernel import matched_dispatches
from ldsopt.matmul.options import WGMMA_REFUSED
from ldsopt.registry import ModulePass, PassError, option
from ldsopt import remarks
from ldsopt.remarks import Unmatched

V_KEYS_INNER = ("V holds its keys innermost (V^T), which the target's matrix-core kernel does not read here; "
                "left to IREE, whose kernel uses the matrix cores (ldsopt-attention{mma=false}: the FMA kernel)")


@dataclasses.dataclass(frozen=True)
class Attention(ModulePass):
    NAME = "ldsopt-attention"
    SUMMARY = "Lower attention dispatches to one flash-attention kernel (Q in registers, K/V through LDS, online softmax)"

    mma: bool = option(True, "use the target's matrix cores (wgmma, mma.sync, MFMA) where it has them")
    mma_warps: int = option(0, "mma.sync: warps a workgroup (0: the plan's)", choices=(0, 1, 2, 4, 8))
    mma_rows_per_warp: int = option(0, "mma.sync: query rows a warp (0: the plan's)", choices=(0, 16, 32))
    mma_keys: int = option(0, "mma.sync: keys a tile (0: the plan's)", choices=(0, 16, 32, 64, 128))
    mma_stages: int = option(0, "mma.sync: LDS tiles of K and V in flight (0: the plan's)", choices=(0, 2, 3, 4))
    mma_lds_layout: str = option("auto", "mma.sync: LDS rows padded or XOR-swizzled (auto: the plan's)",
                                 choices=("auto", "pad", "xor"))
    wgmma: bool = option(True, "sm_90a: Hopper's wgmma kernel where it takes the attention (false: mma.sync)")
    wgmma_warpgroups: int = option(0, "sm_90a's wgmma kernel: warpgroups (64 query rows each) a workgroup "
                                      "(0: the plan's)", choices=(0, 1, 2))
    wgmma_overlap: bool = option(False, "sm_90a's wgmma kernel: each key tile's P V runs under the next tile's "
                                       "softmax (one more LDS tile)")
    wgmma_kv_splits: int = option(0, "sm_90a's wgmma kernel: warpgroups on one warpgroup's rows taking the key "
                                     "tiles in turn (0: the plan's)", choices=(0, 1, 2))

    def run(self, module: ir.Operation) -> None:
        for _, p, tgt in matched_dispatches(module, (attention_match.ONLINE,), _match, self,
                                                       analyzer=_analyze):
            if isinstance(p, combine.CombineProblem):
                combine.emit(p, tgt, self.NAME)
                continue
            knobs = MmaKnobs(self.mma_warps, self.mma_rows_per_warp, self.mma_keys, self.mma_stages, self.mma_lds_layout)
            if self.mma and matrix_cores_decline_v_keys_inner(p, tgt, knobs):
                remarks.missed(p.graph.func, self.NAME, V_KEYS_INNER)
                continue
            wgmma = WgmmaKnobs(self.wgmma, self.wgmma_warpgroups, self.wgmma_overlap, self.wgmma_kv_splits)
            pl = plan(p, tgt, self.mma, knobs, wgmma)
            if pl is not None and pl.scheme == "fma" and knobs != MmaKnobs() and plan(p, tgt, self.mma) != pl:
                raise PassError(p.op.location, f"{self.NAME}: the mma.sync kernel does not fit this attention with "
                                               f"the options {knobs} ({tgt.name}: {tgt.lds_bytes} bytes of LDS)")
            if pl is None:
                raise PassError(p.op.location, f"{self.NAME}: no kernel of this attention fits the target "
                                               f"({tgt.name}: {tgt.lds_bytes} bytes of LDS, {tgt.max_threads} threads)")
            refusal = wgmma_refusal(p, tgt, knobs, wgmma) if self.mma and tgt.wgmma else None
            if refusal is not None:
                p.graph.func.attributes[WGMMA_REFUSED] = ir.StringAttr.get(refusal)
            emitter = {"fma": FmaEmitter, "wgmma": WgmmaEmitter}.get(pl.scheme) or \
                (MfmaEmitter if pl.scheme.startswith("MFMA") else MmaEmitter)
            emitter(p, pl, tgt).emit(self.NAME)


def _analyze(func: ir.Operation, roots: tuple[str, ...]):
    """The problem itself (match.match reads the whole dispatch; a dispatch without attention,
    combine.match); `_match` passes it on."""
    found = attention_match.match(func)
    if isinstance(found, Unmatched) and found.reason == attention_match.NO_ATTENTION:
        return combine.match(func) or found
    return found


def _match(p) -> attention_match.AttentionProblem | Unmatched:
    return p
