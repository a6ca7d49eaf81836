"""Running a program: the compile half of lds-run (`driver`, `model_import`, `reference`,
`numpy_reference`, `reference_companions`, `compile_cache`) and the runtime-only half that
replays a prepared folder on a GPU machine with nothing but the IREE runtime and numpy
(`replay`, `prepared_folder`, `tensor_file`, `value_check`, `sensitivity`, `record`).

Nothing here imports a pass: pipelines name passes, and the registry finds them."""
