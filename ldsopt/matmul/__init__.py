"""The matmul kernel builder behind ldsopt-matmul-lds, shared with the passes that restage its
operands before it (ldsopt-inthread-transpose, ldsopt-dtl-layout):
- match.py: which dispatches are matmuls (`MatmulProblem`, `Epilogue`, `matches`);
- schemes.py: what a plan is made of: the tilings, the product schemes (FMA, matrix cores)
  and `MatmulPlan`;
- planner.py: the planner: each operand's staging and its bank conflicts, the cost model, `plan`;
- options.py: the plan options the passes share, and the plan the first of them records;
- recorded.py: the stagings a pass before ldsopt-matmul-lds records on the root op, and the
  plan that takes them;
- emit.py: the kernel and its K pipeline; copy.py: each operand's copies global -> LDS (registers,
  cp.async, gather_to_lds); output.py: the output store and the fused bodies; emit_fma.py and
  emit_mma.py: each scheme's product and where its output pieces are.
"""
