#!/bin/bash
# There (carrying .whl, build/sass and build/fence): the SASS of the wgmma kernels whose PTX is in
# build/sass (taken here from the folders' dispatch modules with ldsopt.run.ptxas_check.ptx_modules;
# ptxas -arch=sm_90a then cuobjdump -sass), then ../fence-d844df1/run.sh of the variants named.
set -u
mkdir -p $OUT/sass
export PATH=$PATH:/usr/local/cuda/bin
which ptxas cuobjdump nvdisasm > $OUT/sass/tools.txt 2>&1
for p in build/sass/*.ptx; do n=$(basename $p .ptx)
  ptxas -arch=sm_90a -v $p -o /tmp/$n.cubin > $OUT/sass/$n.ptxas.txt 2>&1
  cuobjdump -sass /tmp/$n.cubin > $OUT/sass/$n.sass 2>&1 || nvdisasm /tmp/$n.cubin > $OUT/sass/$n.sass 2>&1
done
(cd $OUT && tar czf sass.tgz sass && rm -rf sass)
BUILD=build/fence bash bench/results/cuda-models/fence-d844df1/run.sh "$@"
(cd $OUT && tar czf runs.tgz gpt2_* && rm -rf gpt2_*)
