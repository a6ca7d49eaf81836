"""The MI300X's peak rates, and the simple bound they put on a kernel: an estimate from static
facts (the bytes a computation must move, its FLOPs, its kernel's instructions), never a time.

Figures: ROCm documentation, "AMD Instinct MI300 series microarchitecture", the table
"Peak-performance capabilities of the MI300X" (304 CUs at 2100 MHz: matrix FP16 and BF16
2048 FLOPs/clock/CU, 1307.4 TFLOP/s; matrix FP8 and INT8 4096, 2614.9; matrix FP32 and FP64
256, 163.4) and its text: "The theoretical aggregated peak memory bandwidth of the GPU is
5.3 TB per second" (HBM3).
"""

from __future__ import annotations

HBM_BYTES_PER_S = 5.3e12
# Matrix-core peak by input type (the MFMA's A and B), in FLOP/s (integer ops for i8).
MFMA_PEAK = {"f16": 1307.4e12, "bf16": 1307.4e12, "fp8": 2614.9e12, "i8": 2614.9e12, "f32": 163.4e12,
             "f64": 163.4e12}
SOURCE = ("ROCm docs, AMD Instinct MI300 series microarchitecture: peak-performance table of the MI300X "
          "and its 5.3 TB/s peak memory bandwidth")


def bound(nbytes: int, flops: int, elem_type: str | None) -> dict:
    """The two floors of a computation that moves `nbytes` and does `flops` on `elem_type`
    operands: bytes at the HBM bandwidth, FLOPs at the MFMA peak of the type (none for a type
    without one, or no FLOPs); `bound` names the larger ("bytes" or "flops")."""
    bytes_us = nbytes / HBM_BYTES_PER_S * 1e6
    peak = MFMA_PEAK.get(elem_type or "")
    flops_us = flops / peak * 1e6 if flops and peak else None
    return {"bytes_us": bytes_us, "flops_us": flops_us, "peak_flops": peak if flops else None,
            "bound": "flops" if flops_us is not None and flops_us > bytes_us else "bytes"}


def balance(elem_type: str) -> float | None:
    """FLOPs per byte of HBM traffic at which the MFMA peak of `elem_type` and the bandwidth meet."""
    peak = MFMA_PEAK.get(elem_type)
    return peak / HBM_BYTES_PER_S if peak else None


def loop_points_to(mfma_flops: int, global_bytes: int, elem_type: str | None) -> tuple[str, str]:
    """("flops" | "bytes", why) for code that does `mfma_flops` of `elem_type` MFMA work per
    `global_bytes` it requests from global memory (one wave, one loop trip): the FLOP bound
    where that intensity reaches the MFMA peak's balance point, else the byte bound. Bytes are
    what the wave requests: caches (L2, Infinity Cache) serve some of them, which this ignores."""
    if not mfma_flops:
        return "bytes", "no MFMA"
    if not global_bytes:
        return "flops", "MFMA with no global access"
    b = balance(elem_type or "")
    if b is None:
        return "bytes", f"MFMA of {elem_type}: no peak figure"
    intensity = mfma_flops / global_bytes
    need = MFMA_PEAK[elem_type] / intensity  # bytes/s of global requests that keep the MFMA at peak
    return (("flops" if intensity >= b else "bytes"),
            f"{intensity:.0f} FLOP/B: the MFMA peak needs {need / 1e12:.0f} TB/s of it, "
            f"{need / HBM_BYTES_PER_S:.1f}x HBM")
