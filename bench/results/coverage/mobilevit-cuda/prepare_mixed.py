# Here: the old MobileViT module (build/mvcuda, e6e6cae: hangs on CUDA) with some of its
# executables replaced by the new module's (build/mv39c, 818d855: ends), one vmfb per subset.
import os, sys
from ldsopt.run import driver
from executables import execs
old = open("build/mvcuda/mobilevit/ldsopt/ldsopt.mlir").read()
new = open("build/mv39c/mobilevit/ldsopt/ldsopt.mlir").read()
subsets = {"all10": [2, 5, 8, 14, 18, 45, 46, 50, 108, 109], "conv": [18, 45], "stores": [2, 5, 8, 14, 46, 109]}
subsets.update({f"d{i}": [i] for i in subsets["all10"]})
out = "build/mvmix"
for name in sys.argv[1:]:
    text = old
    for i in subsets[name]:
        n = f"main_dispatch_{i}"
        a, b = execs(text)[n]; na, nb = execs(new)[n]
        text = text[:a] + new[na:nb] + text[b:]
    p = os.path.join(out, name + ".mlir"); open(p, "w").write(text)
    driver.iree_compile([p, "--compile-from=executable-configurations", "-o", os.path.join(out, name + ".vmfb")], name, out)
    os.remove(p); print("ok", name, flush=True)
