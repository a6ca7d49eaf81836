"""Here, from the repository's root (the venv's python): GPT-2's 12-layer async stack compiled
again with direct bindings (`--iree-hal-indirect-command-buffers=false`), into
build/s36a/gpt2_block/ldsopt-async-direct beside ldsopt-async-stack (same manifest, inputs and
parameters; this commit's module). With direct bindings IREE records the call's CUDA graph
at every call (../9548360-gpt2-sm90a/runtime/): issued back to back, that recording may
overlap the calls before it on the GPU."""
import json
import os
import shutil

from ldsopt.measure import bench
from ldsopt.run import driver

BLOCK = "build/s36a/gpt2_block"
SRC = "build/s36a/models/gpt2_block_base_f16.onnx"
WORK = "build/s37direct"
shutil.rmtree(WORK, ignore_errors=True)
text, archive = driver.read_to_archive(SRC, f"{WORK}/params")
stack, function = bench.stacked(text, 12, SRC)
with open(f"{WORK}/stack.mlir", "w") as f:
    f.write(stack)
driver.prepare(f"{WORK}/stack.mlir", "cuda-sm90a", f"{WORK}/p", function=function, archives=[archive],
               parameters_folder=f"{WORK}/p/parameters", run_reference=False, async_calls=True)
configured = open(f"{WORK}/p/ldsopt.mlir").read()
os.makedirs(f"{WORK}/c", exist_ok=True)
vmfb = driver.compile_module(configured, f"{WORK}/c", "ldsopt", extra=("--iree-hal-indirect-command-buffers=false",))
out = f"{BLOCK}/ldsopt-async-direct"
shutil.rmtree(out, ignore_errors=True)
shutil.copytree(f"{BLOCK}/ldsopt-async-stack", out)
shutil.copy(vmfb, os.path.join(out, "ldsopt.vmfb"))
with open(os.path.join(out, "manifest.json")) as f:
    man = json.load(f)
man["compile_flags"] = man.get("compile_flags", []) + ["--iree-hal-indirect-command-buffers=false"]
with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(man, f, indent=1)
print(out)
