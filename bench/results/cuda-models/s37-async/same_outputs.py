"""On the GPU machine: `same_outputs.py A B [MODE]` runs each async folder's call back to back
(ldsopt/measure/back_to_back.py, 3 calls after the warm-up) in the runtime mode, and prints
whether the last call's outputs are the same bit for bit, else the largest difference."""
import sys

import numpy as np

from ldsopt.measure import back_to_back, timing

mode = sys.argv[3] if len(sys.argv) > 3 else "default"
outs = [back_to_back.calls(f, 3, timing.RUNTIME_MODES["cuda"][mode])[1] for f in sys.argv[1:3]]
for i, (a, b) in enumerate(zip(*outs)):
    same = a.tobytes() == b.tobytes()
    diff = np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)))
    print(f"output {i} {a.shape} {a.dtype}: {'the same bit for bit' if same else f'differs, at most {diff:g}'}"
          f"; finite: {bool(np.isfinite(a).all())}, mean |x| {np.mean(np.abs(a.astype(np.float64))):.4f}")
