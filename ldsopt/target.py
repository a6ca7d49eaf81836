"""The facts about a GPU that a pass may use, read from the IR or chosen by name.

Inside a dispatch, the facts come from the `iree_codegen.target_info = #iree_gpu.target<...>`
of the enclosing `hal.executable.variant`: passes never assume a constant. By name
(`--target`), `KNOWN` lists gfx942, cuda (sm_89 PTX, which runs on an H200) and lavapipe
(Mesa's CPU Vulkan driver, with its real limits), with the IREE flags that
select each. Every known target computes in f64 (lavapipe has shaderFloat64), but by default
IREE demotes f64 to f32, and a module so compiled expects f32 where the program's caller
passes f64: the tools keep f64 (`KEEP_F64`) for a program with f64 arguments or results,
and on llvm-cpu (the reference) always. A program with f64 only inside (a model's scalars,
as IREE's torch pipelines leave them) keeps IREE's demotion on the GPU, whose f64 math not
every backend lowers (SPIR-V's GLSL exp is of 16/32-bit floats only).

IREE's target info states the compute units only for a named chip (`chip = <wgp_count = ...>`,
e.g. `--iree-hip-target=mi300x`), not for an arch such as gfx942 or sm_89; COMPUTE_UNITS
supplies them for the known targets: gfx942 as an MI300X (304 CUs), cuda as the H200 the
benchmarks run on (132 SMs), lavapipe as a CPU of a few cores.
"""

from __future__ import annotations

import dataclasses
import re
import typing

# The bindings and numpy are imported where they are used: the tools read the target names
# here before they parse their arguments, and `--help` must not wait for either.
if typing.TYPE_CHECKING:
    from iree.compiler import ir

    from ldsopt.layout.banks import BankModel


@dataclasses.dataclass(frozen=True)
class Target:
    name: str                 # our name: gfx942 | cuda | lavapipe | the arch otherwise
    backend: str              # rocm | cuda | vulkan
    arch: str
    subgroup_size: int
    lds_bytes: int            # max_workgroup_memory_bytes
    lds_banks: int
    lds_bank_bytes: int
    max_threads: int          # per workgroup
    max_workgroup_counts: tuple[int, int, int]
    max_load_bits: int        # widest global/LDS access of one thread
    max_vector_elems: int | None  # SPIR-V rejects vectors of more than 4 elements
    dma_bits: tuple[int, ...]  # direct-to-LDS transfer sizes (gfx942: 32)
    async_copy: bool          # cp.async (sm_80+)
    l1_prefetch: bool = False  # a global -> L1 prefetch instruction (CUDA's prefetch.global.L1)
    # Element types the target computes natively (IREE's `compute = fp32|int64|...`); IREE
    # emulates the others, which only its own pipeline knows how to do.
    compute: frozenset[str] = frozenset()
    compute_units: int | None = None  # CUs / SMs (workgroups run on one each); None if unknown
    lds_per_cu: int | None = None     # LDS of one CU / SM, shared by its workgroups; None if unknown
    simds_per_cu: int | None = None   # SIMDs / SM sub-partitions of a CU, each running its own subgroups
    max_loop_iterations: int | None = None  # loop iterations one thread may run in all; None: no limit
    # Hopper's warpgroup matrix multiply (`wgmma.mma_async`), legal in PTX for sm_90a only
    # (the `a` features: plain sm_90 PTX rejects it).
    wgmma: bool = False

    def lds_budget(self, workgroups_per_cu: int) -> int:
        """LDS bytes one workgroup may take so that `workgroups_per_cu` fit one CU / SM
        together (a CU of unknown LDS taken to hold one workgroup's maximum)."""
        return min(self.lds_bytes, (self.lds_per_cu or self.lds_bytes) // workgroups_per_cu)

    def bank_model(self) -> BankModel:
        """The LDS bank model of one subgroup's accesses (ldsopt/layout/banks.py)."""
        from ldsopt.layout.banks import BankModel
        return BankModel(self.lds_banks, self.lds_bank_bytes, self.subgroup_size)

    def computes(self, elem_type: str) -> bool:
        """Whether `elem_type` (e.g. "i64") is computed natively; True for types IREE's
        compute field does not name (i1, bf16: IREE converts those itself)."""
        token = _COMPUTE_TOKENS.get(elem_type)
        return token is None or token in self.compute

    def vector_elems(self, elem_bits: int) -> int:
        """Elements of `elem_bits` in the widest vector access this target allows."""
        n = max(1, self.max_load_bits // elem_bits)
        return min(n, self.max_vector_elems) if self.max_vector_elems else n

    @property
    def pipeline_attr(self) -> str:
        """The BaseLowering pipeline attribute: IREE lowers such a kernel as written."""
        if self.backend == "vulkan":
            return "#iree_gpu.spirv_pipeline<BaseLowering>"
        return "#iree_gpu.pipeline<BaseLowering>"


_COMPUTE_TOKENS = {"f64": "fp64", "f32": "fp32", "f16": "fp16", "i64": "int64", "i32": "int32", "i16": "int16",
                   "i8": "int8"}


def _ints(text: str, key: str) -> list[int] | None:
    m = re.search(key + r"\s*=\s*\[([^\]]*)\]", text)
    return [int(x) for x in m.group(1).split(",") if x.strip()] if m else None


def _int(text: str, key: str) -> int | None:
    m = re.search(key + r"\s*=\s*(\d+)", text)
    return int(m.group(1)) if m else None


# Compute units of the known targets when the target info does not state them: an MI300X
# for gfx942, the H200 (132 SMs) for cuda, lavapipe's few CPU threads.
COMPUTE_UNITS = {"gfx942": 304, "cuda": 132, "lavapipe": 4}
# LDS per CU / SM of the same machines: 64 KiB on an MI300X CU; the H200's 228 KiB of shared
# memory per SM (IREE's sm_89 target states only the 99 KiB one workgroup may take; an sm_89 GPU
# has 100 KiB per SM).
LDS_PER_CU = {"gfx942": 65536, "cuda": 233472}
# SIMDs of a CU where the target info does not state them (IREE states `simds_per_wgp` for AMD
# only): an SM has four sub-partitions, each with its own scheduler and matrix cores.
SIMDS_PER_CU = {"cuda": 4}


# Mesa's llvmpipe (lavapipe's compiler) counts the iterations of all of a shader's loops
# together and leaves them after 65535 (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS, "shared between
# every loop"), silently: a longer grid-stride loop leaves outputs unwritten.
MAX_LOOP_ITERATIONS = {"lavapipe": 65535}


def sm_version(arch: str) -> int | None:
    """The compute capability of a CUDA arch (sm_89 -> 89, sm_90a -> 90); None otherwise."""
    m = re.fullmatch(r"sm_(\d+)a?", arch)
    return int(m.group(1)) if m else None


def parse_target_info(info: str, backend: str) -> Target:
    """Builds a Target from the text of an `#iree_gpu.target<...>` attribute."""
    arch_m = re.search(r'arch\s*=\s*"([^"]*)"', info)
    arch = arch_m.group(1) if arch_m else "unknown"
    name = {"gfx942": "gfx942", "lavapipe": "lavapipe"}.get(arch, "cuda" if arch.startswith("sm_") else arch)
    counts = _ints(info, "max_workgroup_counts") or [65535, 65535, 65535]
    return Target(
        name=name,
        backend=backend,
        arch=arch,
        subgroup_size=(_ints(info, "subgroup_size_choices") or [32])[0],
        lds_bytes=_int(info, "max_workgroup_memory_bytes") or 16384,
        lds_banks=_int(info, "workgroup_memory_bank_count") or 32,
        lds_bank_bytes=4,
        max_threads=_int(info, "max_thread_count_per_workgroup") or 128,
        max_workgroup_counts=tuple(counts),
        # IREE states max_load_instruction_bits for AMD only; sm_80+ and lavapipe load 128 bits too.
        max_load_bits=_int(info, "max_load_instruction_bits") or 128,
        max_vector_elems=4 if backend == "vulkan" else None,
        dma_bits=tuple(_ints(info, "dma_sizes") or ()),
        async_copy=(sm_version(arch) or 0) >= 80,
        l1_prefetch=arch.startswith("sm_"),
        compute=frozenset(re.search(r"compute\s*=\s*([\w|]+)", info).group(1).split("|"))
        if re.search(r"compute\s*=", info) else frozenset(_COMPUTE_TOKENS.values()),
        compute_units=_int(info, "wgp_count") or COMPUTE_UNITS.get(name),
        lds_per_cu=LDS_PER_CU.get(name),
        simds_per_cu=_int(info, "simds_per_wgp") or SIMDS_PER_CU.get(name),
        max_loop_iterations=MAX_LOOP_ITERATIONS.get(name),
        wgmma=arch == "sm_90a",
    )


_BACKENDS = {"rocm": "rocm", "cuda": "cuda", "vulkan-spirv": "vulkan"}


def of_op(op: ir.Operation) -> Target | None:
    """The target of the `hal.executable.variant` around `op`; outside one, the target named
    by an `ldsopt.target = "<name>"` attribute on an enclosing module (lds-opt --target sets
    it); None if neither."""
    from iree.compiler import ir
    cur = op
    while cur is not None:
        if cur.name == "builtin.module" and "ldsopt.target" in cur.attributes:
            return by_name(ir.StringAttr(cur.attributes["ldsopt.target"]).value)
        if cur.name == "hal.executable.variant":
            text = str(cur.attributes["target"])
            info = re.search(r"#iree_gpu\.target<.*>>", text, re.S)
            backend_m = re.match(r'#hal\.executable\.target<"([^"]+)"', text)
            if not info or not backend_m:
                return None
            return parse_target_info(info.group(0), _BACKENDS.get(backend_m.group(1), backend_m.group(1)))
        parent = cur.parent
        cur = parent.operation if parent is not None else None
    return None


# Mesa lavapipe's Vulkan device as IREE should target it: its limits, subgroups of 8 and the
# types it has, Int64 included (shaderInt64; without it IREE emulates i64, and its emulation
# fails to legalize i64 vectors, so i64 programs did not compile).
LAVAPIPE_DEVICE_TARGET = """#hal.device.target<"vulkan", [#hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", {
  iree_codegen.target_info = #iree_gpu.target<arch = "lavapipe",
    features = "spirv:v1.3,cap:Shader,cap:Float64,cap:Float16,cap:Int64,cap:Int16,cap:Int8,cap:StorageBuffer16BitAccess,cap:StorageBuffer8BitAccess,cap:GroupNonUniform,cap:GroupNonUniformArithmetic,cap:GroupNonUniformShuffle,cap:GroupNonUniformBallot,ext:SPV_KHR_16bit_storage,ext:SPV_KHR_8bit_storage,ext:SPV_KHR_storage_buffer_storage_class",
    wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic,
           subgroup_size_choices = [8], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024,
           max_workgroup_memory_bytes = 32768, max_workgroup_counts = [65535, 65535, 65535]>>}>]>"""


# Target info as IREE 3.13 states it for `--iree-rocm-target=gfx942` and
# `--iree-cuda-target=sm_89` (copied from `--compile-to=executable-configurations` output).
GFX942_INFO = """#iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>, <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>, <MFMA_F32_4x4x4x16B_F16>, <MFMA_F32_16x16x4x4B_F16>, <MFMA_F32_32x32x4x2B_F16>, <MFMA_F32_4x4x4x16B_BF16>, <MFMA_F32_16x16x4x4B_BF16>, <MFMA_F32_32x32x4x2B_BF16>, <MFMA_F32_4x4x1x16B_F32>, <MFMA_F32_16x16x1x4B_F32>, <MFMA_F32_32x32x1x2B_F32>, <MFMA_F64_4x4x4x4B_F64>, <MFMA_I32_4x4x4x16B_I8>, <MFMA_I32_16x16x4x4B_I8>, <MFMA_I32_32x32x4x2B_I8>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384, dma_sizes = [32], workgroup_memory_bank_count = 32>>"""
SM89_INFO = """#iree_gpu.target<arch = "sm_89", features = "+ptx84", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_MMA_SYNC_F32_16x8x32_F8E4M3FN>, <NV_MMA_SYNC_F32_16x8x32_F8E5M2>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 101376, max_workgroup_counts = [2147483647, 65535, 65535]>>"""
# Hopper (the H200) as IREE 3.13 cannot name it: its table knows no sm_90/sm_90a ("missing GPU
# target"), but a target info of arch sm_90a, written by hand, compiles to PTX of `.target
# sm_90a`, where `wgmma` is legal. The sm_89 facts otherwise (IREE's own pipeline plans
# mma.sync from its mma list), with an SM's 227 KiB that one workgroup may take.
SM90A_INFO = SM89_INFO.replace('arch = "sm_89"', 'arch = "sm_90a"').replace(
    "max_workgroup_memory_bytes = 101376", "max_workgroup_memory_bytes = 232448")
SM90A_DEVICE_TARGET = ('#hal.device.target<"cuda", [#hal.executable.target<"cuda", "cuda-nvptx-fb", '
                       '{iree_codegen.target_info = ' + SM90A_INFO + '}>]>')


@dataclasses.dataclass(frozen=True)
class KnownTarget:
    name: str
    compile_flags: tuple[str, ...]
    device: str                     # iree-run-module --device
    module_targets: str | None = None  # hal.device.targets to put on the input module
    backend: str = ""
    target_info: str = ""
    # The largest buffer one binding may cover (Vulkan's maxStorageBufferRange); past it a
    # kernel reads garbage rather than failing, so the tools refuse such programs.
    max_buffer_bytes: int | None = None


KEEP_F64 = "--iree-input-demote-f64-to-f32=false"

KNOWN: dict[str, KnownTarget] = {
    "gfx942": KnownTarget("gfx942", ("--iree-hal-target-device=hip", "--iree-rocm-target=gfx942"), "hip",
                          backend="rocm", target_info=GFX942_INFO),
    "cuda": KnownTarget("cuda", ("--iree-hal-target-device=cuda", "--iree-cuda-target=sm_89"), "cuda",
                        backend="cuda", target_info=SM89_INFO),
    "cuda-sm90a": KnownTarget("cuda-sm90a", ("--iree-hal-target-device=cuda",), "cuda", SM90A_DEVICE_TARGET,
                              backend="cuda", target_info=SM90A_INFO),
    "lavapipe": KnownTarget("lavapipe", (), "vulkan", LAVAPIPE_DEVICE_TARGET,
                            backend="vulkan", max_buffer_bytes=1 << 27,
                            target_info=re.search(r"#iree_gpu\.target<.*>>", LAVAPIPE_DEVICE_TARGET, re.S).group(0)),
    "llvm-cpu": KnownTarget("llvm-cpu", ("--iree-hal-target-device=local",
                                         "--iree-hal-local-target-device-backends=llvm-cpu", KEEP_F64), "local-task"),
}


def known(name: str) -> KnownTarget:
    if name not in KNOWN:
        raise ValueError(f"unknown target '{name}' (known: {', '.join(KNOWN)})")
    return KNOWN[name]


def by_name(name: str) -> Target:
    """The Target of a known GPU target name (gfx942, cuda, lavapipe)."""
    k = known(name)
    if not k.target_info:
        raise ValueError(f"target '{name}' is not a GPU target")
    return parse_target_info(k.target_info, k.backend)
