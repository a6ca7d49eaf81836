"""The shared bank-conflict model: how many extra cycles one wave-wide LDS access costs.

Model (the same for AMD LDS and NVIDIA shared memory):

* Memory is ``num_banks`` banks of ``bank_bytes``; word ``w = addr // bank_bytes``
  lives in bank ``w % num_banks``.  A lane's access of ``access_bytes`` touches the
  consecutive words it covers.
* A wave's access is served in *phases*: groups of lanes that together move at
  most one word per bank, i.e. ``num_banks * bank_bytes // max(access_bytes,
  bank_bytes)`` consecutive lanes (``phase_lanes`` overrides this).  With 32 x 4 B
  banks that is 32 lanes for b32 and narrower, 16 for b64, 8 for b128.
* Within a phase, lanes that hit the same word are served together (broadcast);
  distinct words in one bank are serialized.  A phase costs the largest number of
  distinct words in any one bank; the ideal is one cycle per phase.
  :meth:`BankModel.conflicts` returns the cycles beyond the ideal.

Sources.  gfx942 (CDNA3): 32 banks x 4 B, wave64 (the gfx942 ISA and LDS DMA docs);
b32 is checked per half wave (AMD OpenCL optimization guide: "threads 0-31 are
checked for conflicts as are threads 32-63"), b64 per quarter wave (same guide),
b128 in 8 phases of 8 consecutive lanes (Composable Kernel docs, "Understanding
AMD GPU LDS and Bank Conflicts", for ``ds_write_b128``).  For ``ds_read_b128``
non-consecutive groups of 8 lanes are reported (:data:`GFX942_DS_READ_B128_LANE_GROUPS`);
pass them as ``lane_groups`` to model that.  NVIDIA: 32 banks x 4 B, warp 32;
a request is split into 128-byte wavefronts, so b64 is served as 2 phases of 16
threads and b128 as 4 phases of 8 (CUDA programming guide, shared memory); extra
wavefronts are what Nsight Compute counts as bank conflicts.  The model ignores
NVIDIA's pairing optimizations for uniform 128-bit loads and LDS clock details:
it ranks layouts, it does not predict time.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import numpy as np

# Reported lane groups of gfx942 ds_read_b128: lanes 0-3 read with 20-23, 4-7 with
# 16-19, 8-11 with 28-31, 12-15 with 24-27, and the same in the upper half wave.
# Third-party reports citing AMD; not verified on hardware here (measure
# SQ_LDS_BANK_CONFLICT before relying on it).
GFX942_DS_READ_B128_LANE_GROUPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(h + a, h + a + 4)) + tuple(range(h + b, h + b + 4))
    for h in (0, 32)
    for a, b in ((0, 20), (4, 16), (8, 28), (12, 24))
)


@dataclass(frozen=True)
class BankModel:
    """Banks of one target; see the module docstring for the phase model."""

    num_banks: int
    bank_bytes: int
    wave_size: int
    phase_lanes: Optional[int] = None

    @classmethod
    def gfx942(cls) -> "BankModel":
        return cls(num_banks=32, bank_bytes=4, wave_size=64)

    @classmethod
    def nvidia(cls) -> "BankModel":
        return cls(num_banks=32, bank_bytes=4, wave_size=32)

    def lanes_per_phase(self, access_bytes: int) -> int:
        if self.phase_lanes is not None:
            return self.phase_lanes
        per_lane = max(access_bytes, self.bank_bytes)
        return max(1, min(self.wave_size, self.num_banks * self.bank_bytes // per_lane))

    def conflicts(self, byte_addresses_per_lane: Sequence[Optional[int]], access_bytes: int,
                  lane_groups: Optional[Sequence[Sequence[int]]] = None) -> int:
        """Extra cycles beyond one per phase for one wave-wide access.

        ``byte_addresses_per_lane[l]`` is lane l's start address (``None``: lane
        inactive).  ``lane_groups`` replaces the default phases (consecutive lanes).
        """
        addrs = [-1 if a is None else a for a in byte_addresses_per_lane]
        return int(self.conflicts_many(np.array([addrs], dtype=np.int64).reshape(1, -1), access_bytes,
                                       lane_groups)[0])

    def conflicts_many(self, byte_addresses: np.ndarray, access_bytes: int,
                       lane_groups: Optional[Sequence[Sequence[int]]] = None) -> np.ndarray:
        """``conflicts`` of many wave-wide accesses of one width at once: row a of
        ``byte_addresses`` (accesses x lanes, a negative address: lane inactive) -> extra
        cycles of access a. The planners price hundreds of layouts, each by dozens of
        accesses; one call per layout keeps that in numpy."""
        addrs = np.asarray(byte_addresses, dtype=np.int64)
        count, lanes = addrs.shape
        if lanes > self.wave_size:
            raise ValueError(f"{lanes} lanes in a wave of {self.wave_size}")
        if lane_groups is None:
            n = self.lanes_per_phase(access_bytes)
            lane_groups = [range(p, min(p + n, lanes)) for p in range(0, lanes, n)]
        # One column per (group, lane) pair: a lane may sit in several groups.
        pairs = [(g, lane) for g, group in enumerate(lane_groups) for lane in group if lane < lanes]
        if not pairs or count == 0:
            return np.zeros(count, dtype=np.int64)
        group_of, lane_of = (np.array(x) for x in zip(*pairs))
        start = addrs[:, lane_of]                                     # (accesses, pairs)
        first, last = start // self.bank_bytes, (start + access_bytes - 1) // self.bank_bytes
        words = first[..., None] + np.arange(int((last - first).max()) + 1)
        touched = (words <= last[..., None]) & (start >= 0)[..., None]
        # Distinct words per (access, group, bank): a word's bank and its row of banks.
        ngroups = len(lane_groups)
        cell = ((np.arange(count)[:, None, None] * ngroups + group_of[None, :, None]) * self.num_banks
                + words % self.num_banks)
        rows = words // self.num_banks
        span = int(rows.max()) + 1
        distinct = np.unique((cell * span + rows)[touched]) // span
        per_bank = np.bincount(distinct, minlength=count * ngroups * self.num_banks)
        worst = per_bank.reshape(count, ngroups, self.num_banks).max(axis=2)
        return np.maximum(worst - 1, 0).sum(axis=1)

    def wave_cycles(self, byte_addresses: np.ndarray, access_bytes: np.ndarray) -> int:
        """Extra cycles of a wave's accesses in all: access a of lane l starts at
        `byte_addresses[l, a]` (negative: lane inactive) and moves `access_bytes[a]` bytes
        (`conflicts_many` per access width)."""
        return sum(int(self.conflicts_many(byte_addresses[:, access_bytes == w].T, int(w)).sum())
                   for w in np.unique(access_bytes))

    def average_conflicts(self, layout_map: Callable[[int], int], thread_to_coords: Callable[[int], int],
                          num_accesses: int, elem_bytes: int, access_bytes: int,
                          lane_groups: Optional[Sequence[Sequence[int]]] = None) -> float:
        """Mean extra cycles per wave-wide access over a whole access pattern.

        ``thread_to_coords(lane + wave_size * a)`` is the logical element index that
        ``lane`` starts its vector at in access ``a`` (a :class:`ldsopt.layout.maps.Layout`
        of shape ``(wave_size, num_accesses)`` fits); ``layout_map`` places it in LDS
        (an :mod:`ldsopt.layout.maps` address map, a Layout, or any callable).  Each lane's
        ``access_bytes`` must stay contiguous after the map: a swizzle that splits
        a vector would turn one access into several, so it raises ``ValueError``.
        """
        if num_accesses < 1 or access_bytes % elem_bytes:
            raise ValueError("need num_accesses >= 1 and access_bytes a multiple of elem_bytes")
        vec = access_bytes // elem_bytes
        total = 0
        for a in range(num_accesses):
            addrs = []
            for lane in range(self.wave_size):
                start = thread_to_coords(lane + self.wave_size * a)
                off = layout_map(start)
                if any(layout_map(start + j) != off + j for j in range(1, vec)):
                    raise ValueError(f"lane {lane}, access {a}: {vec}-element vector at {start} is split by the map")
                addrs.append(off * elem_bytes)
            total += self.conflicts(addrs, access_bytes, lane_groups)
        return total / num_accesses
