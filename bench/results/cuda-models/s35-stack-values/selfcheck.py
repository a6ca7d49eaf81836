"""The split FFN down's chunk statistics against the same statistics computed in f64 from the
kernel's own stored output (output0), and against the reference's: whether a mismatch with the
reference comes from the statistics or from the stored values they are made of."""
import json, sys
import numpy as np
d = sys.argv[1]
m = json.load(open(f"{d}/manifest.json"))
h = np.fromfile(f"{d}/output0.bin", np.float16).reshape(512, 768).astype(np.float64)
s1, s2 = (np.fromfile(f"{d}/output{i}.bin", np.float32).reshape(512, 12).astype(np.float64) for i in (1, 2))
e = m["expected"]
rh = np.fromfile(f"{d}/{e[0]['file']}", np.float16 if e[0]['dtype'] == 'f16' else np.float64).reshape(512, 768).astype(np.float64)
r1, r2 = (np.fromfile(f"{d}/{e[i]['file']}", np.float32 if e[i]['dtype'] == 'f32' else np.float64).reshape(512, 12).astype(np.float64) for i in (1, 2))
def stats(x):
    c = x.reshape(512, 12, 64)
    dd = c - c[:, :, :1]
    return dd.sum(-1), (dd * dd).sum(-1)
o1, o2 = stats(h)
rel = lambda a, b: np.abs(a - b) / np.maximum(np.abs(b), 1e-30)
print("kernel's stats vs f64 stats of its own output: max rel", rel(s1, o1).max(), rel(s2, o2).max())
print("kernel's stored output vs reference: elements differing", int((h != rh).sum()), "max abs", np.abs(h - rh).max())
i = np.unravel_index(np.argmax(rel(s2, r2)), r2.shape)
print("worst chunk against the reference", i, "kernel", s2[i], "reference", r2[i], "own-output f64", o2[i],
      "heads differ", h[i[0], i[1] * 64] != rh[i[0], i[1] * 64], "elements of the chunk differing", int((h[i[0], i[1]*64:(i[1]+1)*64] != rh[i[0], i[1]*64:(i[1]+1)*64]).sum()))
