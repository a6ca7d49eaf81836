"""A per-kernel summary of gfx942 ISA (the `.rocmasm` IREE dumps), for tests and tools.

What the seed passes change shows up here: LDS bytes, LDS reads/writes by width, barriers,
`v_perm_b32` (register transposes), loads that go straight to LDS, registers and spills.
"""

from __future__ import annotations

import dataclasses
import glob
import os
import re


@dataclasses.dataclass
class KernelIsa:
    name: str
    lds_bytes: int = 0
    vgprs: int = 0
    sgprs: int = 0
    vgpr_spills: int = 0
    sgpr_spills: int = 0
    barriers: int = 0
    v_perm: int = 0
    lds_direct_loads: int = 0  # buffer_load_* ... lds / global_load_lds_*
    mfma: int = 0  # v_mfma_* (matrix-core instructions)
    ds_ops: dict[str, int] = dataclasses.field(default_factory=dict)  # ds_read_b128 -> count
    global_ops: dict[str, int] = dataclasses.field(default_factory=dict)

    def ds_count(self, prefix: str) -> int:
        """Sum of LDS ops whose mnemonic starts with `prefix` (e.g. 'ds_read', 'ds_write_b128')."""
        return sum(n for op, n in self.ds_ops.items() if op.startswith(prefix))

    def summary(self) -> str:
        ds = " ".join(f"{k}={v}" for k, v in sorted(self.ds_ops.items())) or "none"
        return (f"{self.name}: LDS {self.lds_bytes} B; ds ops: {ds}; s_barrier {self.barriers}; "
                f"VGPRs {self.vgprs}, SGPRs {self.sgprs}, spills {self.vgpr_spills}+{self.sgpr_spills}; "
                f"v_perm_b32 {self.v_perm}; direct-to-LDS loads {self.lds_direct_loads}; v_mfma {self.mfma}")


_FUNCTION_TYPE = re.compile(r"^\s*\.type\s+([\w.$]+),@function")
_INSTR = re.compile(r"^\s+([a-z_][a-z0-9_]*)\b(.*)$")
_META_ENTRY = re.compile(r"^  - ")
_META = re.compile(r"^\s+\.(name|group_segment_fixed_size|vgpr_count|sgpr_count|vgpr_spill_count|sgpr_spill_count):\s+(\S+)")
_META_FIELDS = {"group_segment_fixed_size": "lds_bytes", "vgpr_count": "vgprs", "sgpr_count": "sgprs",
                "vgpr_spill_count": "vgpr_spills", "sgpr_spill_count": "sgpr_spills"}


def parse_rocmasm(text: str) -> list[KernelIsa]:
    """Instructions are counted between a kernel's label and the next label of a function;
    LDS bytes, registers and spills come from the `amdhsa.kernels` metadata."""
    lines = text.splitlines()
    names = {m.group(1) for m in map(_FUNCTION_TYPE.match, lines) if m}
    kernels = {n: KernelIsa(n) for n in sorted(names)}
    cur: KernelIsa | None = None
    in_meta = False
    meta: dict[str, str] = {}

    def flush_meta():
        k = kernels.get(meta.get("name", ""))
        if k:
            for key, attr in _META_FIELDS.items():
                if key in meta:
                    setattr(k, attr, int(meta[key]))
        meta.clear()

    for line in lines:
        if line.startswith("amdhsa.kernels:"):
            in_meta, cur = True, None
            continue
        if in_meta:
            if _META_ENTRY.match(line):
                flush_meta()
            elif not line.startswith(" "):
                flush_meta()
                in_meta = False
            m = _META.match(line)
            if m and m.group(1) not in meta:  # nested .args entries come first; keep the kernel's own
                meta[m.group(1)] = m.group(2)
            continue
        label = line.rstrip(":") if line.endswith(":") and not line.startswith((" ", "\t")) else None
        if label is not None:
            cur = kernels.get(label, cur if label.startswith(".") else None)
            continue
        im = _INSTR.match(line)
        if cur is None or not im or im.group(1).startswith("."):
            continue
        op, rest = im.groups()
        if op.startswith("ds_"):
            cur.ds_ops[op] = cur.ds_ops.get(op, 0) + 1
        elif op.startswith(("global_", "buffer_")):
            cur.global_ops[op] = cur.global_ops.get(op, 0) + 1
            if op.startswith("global_load_lds") or (op.startswith("buffer_load") and re.search(r"\blds\b", rest)):
                cur.lds_direct_loads += 1
        elif op == "s_barrier":
            cur.barriers += 1
        elif op == "v_perm_b32":
            cur.v_perm += 1
        elif op.startswith("v_mfma"):
            cur.mfma += 1
    return list(kernels.values())


def from_dump_dir(folder: str) -> list[KernelIsa]:
    """Every kernel of every `.rocmasm` under a `--iree-hal-dump-executable-files-to` folder."""
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "*.rocmasm"))):
        with open(path) as f:
            out += parse_rocmasm(f.read())
    return out
