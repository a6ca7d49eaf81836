"""A per-kernel summary of gfx942 ISA (the `.rocmasm` IREE dumps), for tests and tools.

What the seed passes change shows up here: LDS bytes, LDS reads/writes by width, barriers,
`v_perm_b32` (register transposes), loads that go straight to LDS, registers and spills.
`kernel_code` gives each kernel's labels and instructions for a closer look
(`ldsopt.measure.isa_counts`: counts by width, per main-loop iteration).
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
    vgprs: int = 0          # the kernel's vector registers, AGPRs included (the unified file's share)
    sgprs: int = 0
    vgpr_spills: int = 0
    sgpr_spills: int = 0
    barriers: int = 0
    v_perm: int = 0
    lds_direct_loads: int = 0  # buffer_load_* ... lds / global_load_lds_*
    mfma: int = 0  # v_mfma_* (matrix-core instructions)
    ds_ops: dict[str, int] = dataclasses.field(default_factory=dict)  # ds_read_b128 -> count
    global_ops: dict[str, int] = dataclasses.field(default_factory=dict)
    agprs: int = 0          # accumulation registers (v_accvgpr / MFMA results kept in a[...])
    scratch_bytes: int = 0  # private segment per work-item: stack and spills
    workgroup_size: int = 0  # the largest flat workgroup the kernel is compiled for
    # VGPRs (AGPRs included) the kernel descriptor has the hardware allocate a wave
    # (`.amdhsa_next_free_vgpr`): at least `vgprs`, raised by LLVM to what the occupancy that
    # its LDS allows leaves room for (ldsopt.measure.occupancy)
    descriptor_vgprs: int = 0

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
# A kernel's own keys in the `amdhsa.kernels` metadata: its entry's first line (`  - .key:`) and
# the lines at that entry's indent (`    .key:`); its `.args` entries are indented deeper.
_META = re.compile(r"^(?:  - |    )\.(\w+):\s+(\S+)")
_DESCRIPTOR = re.compile(r"^\s*\.amdhsa_kernel\s+([\w.$]+)")
_NEXT_FREE_VGPR = re.compile(r"^\s*\.amdhsa_next_free_vgpr\s+(\d+)")
_META_FIELDS = {"group_segment_fixed_size": "lds_bytes", "vgpr_count": "vgprs", "sgpr_count": "sgprs",
                "vgpr_spill_count": "vgpr_spills", "sgpr_spill_count": "sgpr_spills", "agpr_count": "agprs",
                "private_segment_fixed_size": "scratch_bytes", "max_flat_workgroup_size": "workgroup_size"}


def is_lds_direct(op: str, operands: str) -> bool:
    """A load that writes LDS without registers: `buffer_load_* ... lds`, `global_load_lds_*`."""
    return op.startswith("global_load_lds") or (op.startswith("buffer_load") and re.search(r"\blds\b", operands))


def kernel_code(text: str) -> dict[str, list[tuple[str, str]]]:
    """Each kernel's code in order: ("label", name) for a label, (mnemonic, operands) for an
    instruction; between the kernel's label and the next label of a function (directives and
    comments left out)."""
    lines = text.splitlines()
    names = {m.group(1) for m in map(_FUNCTION_TYPE.match, lines) if m}
    code: dict[str, list[tuple[str, str]]] = {n: [] for n in sorted(names)}
    cur: list | None = None
    for line in lines:
        if line.startswith("amdhsa.kernels:"):
            break
        label = line.rstrip(":") if line.endswith(":") and not line.startswith((" ", "\t")) else None
        if label is not None:
            if label in code:
                cur = code[label]
            elif not label.startswith("."):
                cur = None
            elif cur is not None:
                cur.append(("label", label))
            continue
        im = _INSTR.match(line.split(";")[0])
        if cur is not None and im and not im.group(1).startswith("."):
            cur.append((im.group(1), im.group(2).strip()))
    return code


def _metadata(text: str) -> list[dict[str, str]]:
    """The kernel entries of the `amdhsa.kernels` metadata, each its own keys."""
    entries: list[dict[str, str]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("amdhsa.kernels:"):
            inside = True
            continue
        if inside and line and not line.startswith(" "):
            break
        if inside:
            if line.startswith("  - "):
                entries.append({})
            m = _META.match(line)
            if m and entries:
                entries[-1][m.group(1)] = m.group(2)
    return entries


def parse_rocmasm(text: str) -> list[KernelIsa]:
    """Instructions are counted between a kernel's label and the next label of a function;
    LDS bytes, registers, spills and scratch come from the `amdhsa.kernels` metadata, the
    descriptor's VGPRs from its `.amdhsa_kernel` block."""
    kernels = {}
    for name, code in kernel_code(text).items():
        k = kernels[name] = KernelIsa(name)
        for op, rest in code:
            if op.startswith("ds_"):
                k.ds_ops[op] = k.ds_ops.get(op, 0) + 1
            elif op.startswith(("global_", "buffer_")):
                k.global_ops[op] = k.global_ops.get(op, 0) + 1
                k.lds_direct_loads += bool(is_lds_direct(op, rest))
            elif op == "s_barrier":
                k.barriers += 1
            elif op == "v_perm_b32":
                k.v_perm += 1
            elif op.startswith("v_mfma"):
                k.mfma += 1
    descriptor = None
    for line in text.splitlines():
        if m := _DESCRIPTOR.match(line):
            descriptor = kernels.get(m.group(1))
        elif (m := _NEXT_FREE_VGPR.match(line)) and descriptor is not None:
            descriptor.descriptor_vgprs = int(m.group(1))
    for meta in _metadata(text):
        k = kernels.get(meta.get("name", ""))
        if k:
            for key, attr in _META_FIELDS.items():
                if key in meta:
                    setattr(k, attr, int(meta[key]))
    return list(kernels.values())


def rocmasm_files(folder: str) -> list[str]:
    """The `.rocmasm` files of a `--iree-hal-dump-executable-files-to` folder."""
    return sorted(glob.glob(os.path.join(folder, "*.rocmasm")))


def from_dump_dir(folder: str) -> list[KernelIsa]:
    """Every kernel of every `.rocmasm` under a `--iree-hal-dump-executable-files-to` folder."""
    out = []
    for path in rocmasm_files(folder):
        with open(path) as f:
            out += parse_rocmasm(f.read())
    return out
