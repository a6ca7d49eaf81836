# Here: build/mvbis/<variant>.vmfb, MobileViT's module for --target cuda with one pass family left
# out of the ldsopt pipeline each.
import os, json, re
from ldsopt.run import driver
from ldsopt.cli import output_file
src = "build/mvcuda/mobilevit/ldsopt"
out = "build/mvbis"
os.makedirs(out, exist_ok=True)
man = json.load(open(f"{src}/manifest.json"))
pipe = man["pipeline"]
cfg = open(f"{src}/configured.mlir").read()
drops = {"no-attention": ["ldsopt-attention"], "no-vd": ["ldsopt-vector-distribute"],
         "no-matmul": [r"ldsopt-dtl-layout\{[^}]*\}", "ldsopt-inthread-transpose", "ldsopt-matmul-lds"],
         "no-window": ["ldsopt-window-reduce"], "no-preload": ["ldsopt-preload-transposed"],
         "no-elementwise": ["ldsopt-lower-elementwise"], "no-copy": ["ldsopt-lower-copy"]}
for name, pats in drops.items():
    p = pipe
    for pat in pats:
        p, n = re.subn(pat + r", ", "", p)
        assert n == 1, (name, pat)
    try:
        lowered, report = driver.apply_ldsopt(cfg, p)
        output_file.write(os.path.join(out, name + ".mlir"), lowered)
        driver.iree_compile([os.path.join(out, name + ".mlir"), "--compile-from=executable-configurations", "-o",
                             os.path.join(out, name + ".vmfb")], "compile " + name, out)
        print(name, sum(1 for d in report if d["passes"]), len(report), flush=True)
    except Exception as e:
        print(name, "FAILED", str(e).splitlines()[0][:300], flush=True)
