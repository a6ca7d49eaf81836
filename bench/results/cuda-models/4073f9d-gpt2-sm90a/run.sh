python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH:/usr/local/cuda/bin
C=build/c5
for d in $C/values_positions/*/; do timeout 30 python -m ldsopt.run.replay $d --require-ldsopt 2>&1 | grep -E "PASS|FAIL"; done > $OUT/values_positions.txt; cat $OUT/values_positions.txt
timeout 60 python3 bench/kernel_times.py "$C/softmax/dispatches/*/*.vmfb" --out $OUT/softmax_kernel_times.json > $OUT/softmax_kernel_times.txt 2>&1; cat $OUT/softmax_kernel_times.txt
mkdir -p $OUT/gpt2
timeout 330 python -m ldsopt.measure.program_bench $C/gpt2 --out $OUT/gpt2 --repetitions 2 > $OUT/gpt2/log.txt 2>&1; tail -32 $OUT/gpt2/log.txt | cut -c1-250
timeout 120 python3 bench/kernel_times.py "$C/gpt2/dispatches/ldsopt/*.vmfb" --out $OUT/gpt2/kernel_times.json > $OUT/gpt2/kernel_times.txt 2>&1; cat $OUT/gpt2/kernel_times.txt
cd $OUT && tar czf gpt2.tgz gpt2 && rm -rf gpt2 && ls
