"""cuBLAS (through PyTorch) on the matmul cases whose output ldsopt writes in f32: the 16-bit
product with a 16-bit output, as `cases.py`'s twins time it, and with an f32 output
(`torch.mm(..., out_dtype=torch.float32)`), which moves the bytes ldsopt's kernel moves.
Median of 20 timed products after 5 warm-ups, CUDA events."""

import statistics

import torch


def timed(fn, reps: int = 20) -> float:
    for _ in range(5):
        fn()
    times = []
    for _ in range(reps):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        fn()
        e1.record()
        e1.synchronize()
        times.append(e0.elapsed_time(e1) * 1e3)
    return statistics.median(times)


def main() -> None:
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    for m, n, k, dt in ((8192, 8192, 1024, torch.bfloat16), (4096, 4096, 4096, torch.float16),
                        (4096, 4096, 4096, torch.bfloat16)):
        a = torch.randn(m, k, device="cuda", dtype=dt)
        b = torch.randn(k, n, device="cuda", dtype=dt)
        flop = 2 * m * n * k
        us16 = timed(lambda: torch.mm(a, b))
        try:
            us32 = timed(lambda: torch.mm(a, b, out_dtype=torch.float32))
            ref = (a.float() @ b.float())
            err = (torch.mm(a, b, out_dtype=torch.float32) - ref).abs().max().item()
            f32 = f"{us32:8.1f} us {flop / us32 / 1e6:6.1f} TFLOP/s (max |err| {err:.2e})"
        except (TypeError, RuntimeError) as e:
            f32 = f"not available: {e}"
        print(f"{m}x{n}x{k} {str(dt)[6:]}: 16-bit out {us16:8.1f} us {flop / us16 / 1e6:6.1f} TFLOP/s; f32 out {f32}")


if __name__ == "__main__":
    main()
