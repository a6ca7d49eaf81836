# Here: build/mvswap/<executable>.vmfb, the module without the matmul passes (build/mvbis_mlir/no-matmul.mlir)
# with one executable as the full ldsopt pipeline lowered it, for each of the matmul passes' ones.
import os, re
from ldsopt.run import driver
full = open("build/mvcuda/mobilevit/ldsopt/ldsopt.mlir").read()
base = open("build/mvbis_mlir/no-matmul.mlir").read()
out = "build/mvswap"; os.makedirs(out, exist_ok=True)
def execs(text):
    """name -> (start, end) of each top-level hal.executable's text."""
    spans = {}
    for m in re.finditer(r"^  hal\.executable private @(\w+) \{\n", text, re.M):
        end = text.index("\n  }\n", m.start()) + len("\n  }\n")
        spans[m.group(1)] = (m.start(), end)
    return spans
fs, bs = execs(full), execs(base)
names = [n for n, (a, b) in fs.items() if re.search(r'lowered_by = \[[^]]*"ldsopt-(matmul-lds|dtl-layout)', full[a:b])]
print(len(names), names)
for n in names:
    a, b = bs[n]; fa, fb = fs[n]
    text = base[:a] + full[fa:fb] + base[b:]
    p = os.path.join(out, n + ".mlir")
    open(p, "w").write(text)
    driver.iree_compile([p, "--compile-from=executable-configurations", "-o", os.path.join(out, n + ".vmfb")], n, out)
    os.remove(p)
    print("ok", n, flush=True)
