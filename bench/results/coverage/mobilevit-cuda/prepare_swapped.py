# Here: build/mvswap/<executable>.vmfb, the module without the matmul passes (build/mvbis_mlir/no-matmul.mlir)
# with one executable as the full ldsopt pipeline lowered it, for each of the matmul passes' ones.
import os, re
from ldsopt.run import driver
from executables import execs
full = open("build/mvcuda/mobilevit/ldsopt/ldsopt.mlir").read()
base = open("build/mvbis_mlir/no-matmul.mlir").read()
out = "build/mvswap"; os.makedirs(out, exist_ok=True)
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
