"""A function that takes its results' storage and its transient storage from the caller.

IREE's native ABI lets a public function take one `!hal.buffer {iree.abi.output = i : index}`
argument per tensor result (the result is written there) and one `!hal.buffer
{iree.abi.transients}` argument, from which every transient allocation of the call is placed
(`iree-stream-emplace-transients`; the size it needs is reflected as
`iree.abi.transients.size.constant` where it is a constant). A call then allocates and frees
nothing. That matters for calls issued back to back (`ldsopt.measure.back_to_back`): IREE
3.13's CUDA HAL performs `queue_dealloca` and `queue_alloca` on the calling thread after
waiting on the host for the fences they wait on, so a call that frees its transients returns
only once its own kernels have completed, and the next call cannot be issued before.

`with_caller_storage(text, function)` appends those arguments to `function` (a `func.func` or
`util.func` of the program, on tensors): first one output buffer per tensor result, in
order, then the transient storage. It refuses (CallerStorageError) a function it cannot find
or one that returns something other than tensors. Its callers pass, after the function's
own arguments: the output buffers, the transient buffer, then (async-external) the fences.
"""

from __future__ import annotations

OUTPUT = "iree.abi.output"
TRANSIENTS = "iree.abi.transients"
TRANSIENTS_SIZE = "iree.abi.transients.size.constant"  # the reflection key of a constant size


class CallerStorageError(ValueError):
    pass


def with_caller_storage(text: str, function: str) -> str:
    from iree.compiler import ir  # here: the GPU machine, which reads the constants, has no compiler

    from ldsopt import shared_context

    with shared_context.get() as ctx:
        module = ir.Module.parse(text, ctx)
        op = next((op.operation for op in module.body.operations
                   if op.operation.name in ("func.func", "util.func")
                   and ir.StringAttr(op.operation.attributes["sym_name"]).value == function), None)
        if op is None:
            raise CallerStorageError(f"no function @{function} in the program")
        ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
        if not all(isinstance(t, ir.RankedTensorType) for t in ftype.results):
            raise CallerStorageError(f"@{function} returns something other than tensors: its results' storage "
                                     f"cannot come from the caller")
        buffer = ir.Type.parse("!hal.buffer")
        index = ir.IndexType.get()
        added = [ir.DictAttr.get({OUTPUT: ir.IntegerAttr.get(index, i)}) for i in range(len(ftype.results))]
        added.append(ir.DictAttr.get({TRANSIENTS: ir.UnitAttr.get()}))
        old = (list(ir.ArrayAttr(op.attributes["arg_attrs"])) if "arg_attrs" in op.attributes
               else [ir.DictAttr.get({})] * len(ftype.inputs))
        entry = op.regions[0].blocks[0]
        for _ in added:
            entry.add_argument(buffer, op.location)
        op.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get(list(ftype.inputs) + [buffer] * len(added), list(ftype.results)))
        op.attributes["arg_attrs"] = ir.ArrayAttr.get(old + added)
        return str(module)

