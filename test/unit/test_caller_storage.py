"""ldsopt/run/caller_storage.py: the entry function gains one output buffer per result and a
transient buffer, with the ABI attributes IREE reads; the other functions keep theirs; a
function that is not there, or returns a non-tensor, is refused."""

import pytest

from ldsopt.run import caller_storage

PROGRAM = """
func.func @layer(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @two(%x: tensor<4xf32> {iree.abi.name = "x"}, %y: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>) {
  %0 = func.call @layer(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %y : tensor<4xf32>, tensor<4xf16>
}
func.func @scalar(%x: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %0 = tensor.extract %x[%c0] : tensor<4xf32>
  return %0 : f32
}
"""


def test_outputs_then_transients_after_the_arguments():
    text = caller_storage.with_caller_storage(PROGRAM, "two")
    header = next(line for line in text.splitlines() if "func.func @two" in line)
    assert ('%arg2: !hal.buffer {iree.abi.output = 0 : index}, %arg3: !hal.buffer {iree.abi.output = 1 : index}, '
            '%arg4: !hal.buffer {iree.abi.transients}) -> (tensor<4xf32>, tensor<4xf16>)') in header
    assert '{iree.abi.name = "x"}' in header  # the arguments' own attributes are kept
    assert "func.func @layer(%arg0: tensor<4xf32>) -> tensor<4xf32>" in text


def test_refuses_what_it_cannot_give_storage():
    with pytest.raises(caller_storage.CallerStorageError, match="no function @missing"):
        caller_storage.with_caller_storage(PROGRAM, "missing")
    with pytest.raises(caller_storage.CallerStorageError, match="other than tensors"):
        caller_storage.with_caller_storage(PROGRAM, "scalar")
