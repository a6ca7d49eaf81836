"""Running a program: the compile half of lds-run (`driver`, `model_import`, `reference`,
`numpy_reference`, `compile_cache`) and the runtime-only half that replays a prepared folder
on a GPU machine with nothing but the IREE runtime and numpy (`replay`, `record`).

Nothing here imports a pass: pipelines name passes, and the registry finds them."""
