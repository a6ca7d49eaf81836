"""The GPT-2 stack's ldsopt module compiled again with IREE's command-buffer options (the
runtime experiment of ../README.md): run here, from /work/main at 9548360, after
`lds-bench ... --stack 12 --prepare build/d2/gpt2` (../README.md); each variant is a copy of
build/d2/gpt2/ldsopt-stack with its own module."""
import os
import shutil

from ldsopt.measure import bench
from ldsopt.run import driver

SRC = "/work/scratch/m/gpt2_block_base_f16.onnx"
text, archive = driver.read_to_archive(SRC, "/work/scratch/var/params")
stack, function = bench.stacked(text, 12, SRC)
with open("/work/scratch/var/stack.mlir", "w") as f:
    f.write(stack)
driver.prepare("/work/scratch/var/stack.mlir", "cuda-sm90a", "/work/scratch/var/p", function=function,
               archives=[archive], parameters_folder="/work/scratch/var/p/parameters", run_reference=False)
configured = open("/work/scratch/var/p/ldsopt.mlir").read()
for name, extra in (("direct", ("--iree-hal-indirect-command-buffers=false",)),
                    ("nomemo", ("--iree-hal-memoization=false",)), ("same", ())):
    out = f"build/d2/gpt2/ldsopt-stack-{name}"
    os.makedirs(out, exist_ok=True)
    for f in ("input0.bin", "manifest.json"):
        shutil.copy(os.path.join("build/d2/gpt2/ldsopt-stack", f), out)
    work = f"/work/scratch/var/c-{name}"
    os.makedirs(work, exist_ok=True)
    shutil.copy(driver.compile_module(configured, work, "ldsopt", extra=extra), os.path.join(out, "ldsopt.vmfb"))
