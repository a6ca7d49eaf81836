python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv
C=build/c1
mkdir -p $OUT/bert90
timeout 60 python -m ldsopt.run.replay $C/values --require-ldsopt > $OUT/values.txt 2>&1; tail -4 $OUT/values.txt
timeout 330 python -m ldsopt.measure.program_bench $C/bert90 --out $OUT/bert90 --repetitions 2 > $OUT/bert90/log.txt 2>&1; tail -40 $OUT/bert90/log.txt
timeout 60 python3 bench/kernel_times.py "$C/copies/*/dispatches/*/*.vmfb" --out $OUT/copies_kernel_times.json > $OUT/copies_kernel_times.txt 2>&1; cat $OUT/copies_kernel_times.txt
timeout 120 python3 bench/kernel_times.py "$C/bert90/dispatches/ldsopt/*.vmfb" --out $OUT/bert90/kernel_times.json > $OUT/bert90/kernel_times.txt 2>&1; cat $OUT/bert90/kernel_times.txt
cd $OUT && tar czf bert90.tgz bert90 && cp bert90/log.txt bert90_log.txt && rm -rf bert90 && ls -la
