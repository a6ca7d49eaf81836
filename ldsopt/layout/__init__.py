"""The maps of the library, each written once with an integer face (for planners, the bank
model and tests) and an IR face (for the emitters): index expressions, thread and LDS maps,
the bank-conflict model, matrix-core lane layouts, direct-to-LDS layouts and the staging of
an operand tile global -> LDS -> registers."""
