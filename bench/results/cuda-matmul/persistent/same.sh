#!/bin/bash
# Whether the persistent kernels compute the plain grid's values bit for bit (the same tiles, the
# same order of sums). Here: `same.sh prepare` builds build/pers0/P/ldsopt.vmfb, each program of
# build/pers (prepare.sh) without persistent=true. There (carrying .whl, build/pers and
# build/pers0): `same.sh run OUT` runs both modules of each program on its inputs and compares.
set -euo pipefail
if [ "$1" = prepare ]; then
  export PATH=$PWD/.venv/bin:$PATH
  pipeline=$(python -c "from ldsopt.run import driver; print(driver.DEFAULT_PIPELINE.replace('ldsopt-matmul-lds,', 'ldsopt-matmul-lds{tiles=128x256x8x16},'))")
  copy=$(mktemp -d)
  lds-run --target cuda-sm90a --pipeline "$pipeline" --prepare "$copy" test/e2e/programs/matmul_persistent/*.mlir > /dev/null
  for d in "$copy"/*/; do mkdir -p build/pers0/$(basename "$d"); cp "$d/ldsopt.vmfb" build/pers0/$(basename "$d")/; done
  rm -rf "$copy"
else
  out=$2; mkdir -p "$out"
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl 2>/dev/null
  export PYTHONPATH=/tmp/site PATH=/tmp/site/bin:$PATH
  for d in build/pers/*/; do p=$(basename "$d")
    inputs=$(python3 -c "import json; m = json.load(open('$d/manifest.json')); print(' '.join(
      '--input=%sx%s=@$d/%s' % ('x'.join(map(str, t['shape'])), t['dtype'], t['file']) for t in m['inputs']))")
    for v in pers pers0; do
      outs=$(python3 -c "import json; m = json.load(open('$d/manifest.json')); print(' '.join(
        '--output=@$out/${p}_${v}_%d.npy' % i for i in range(len(m['outputs']))))")
      timeout 60 iree-run-module --device=cuda --module=build/$v/$p/ldsopt.vmfb --function=main $inputs $outs > /dev/null
    done
    python3 -c "
import glob, numpy as np
a = sorted(glob.glob('$out/${p}_pers_*.npy')); b = sorted(glob.glob('$out/${p}_pers0_*.npy'))
same = [np.array_equal(np.load(x), np.load(y)) for x, y in zip(a, b)]
print('$p', 'persistent == plain, bit for bit:' if all(same) else 'DIFFER:', len(same), 'outputs')"
  done
fi
