"""The model suite (ONNX models written with onnx.helper), their PyTorch twins and the
coverage report; installed as `ldsopt.models`."""
