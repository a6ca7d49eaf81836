"""Runs a module's `main` several times in one process on CUDA and saves the last call's
output: `trace.sh`'s kernels traced warm (each `iree-run-module` ran its dispatch once, in a
fresh process, where a workgroup stalled for about 200 k cycles every few K steps).

    python warm.py MODULE.vmfb INPUTS_DIR OUT.npy [CALLS]

INPUTS_DIR is an `lds-run --prepare` folder: its manifest names the inputs' files, shapes and
types."""

import json
import os
import sys

import numpy as np
from iree import runtime

TYPES = {"f16": np.float16, "f32": np.float32, "bf16": np.uint16, "i8": np.int8, "i32": np.int32}


def main(module: str, inputs_dir: str, out: str, calls: int = 3) -> None:
    manifest = json.load(open(os.path.join(inputs_dir, "manifest.json")))
    args = [np.fromfile(os.path.join(inputs_dir, t["file"]), dtype=TYPES[t["dtype"]]).reshape(t["shape"])
            for t in manifest["inputs"]]
    loaded = runtime.load_vm_flatbuffer_file(module, driver="cuda")
    for _ in range(calls):
        result = loaded.main(*args)
    np.save(out, np.asarray(result.to_host()))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:5]))
