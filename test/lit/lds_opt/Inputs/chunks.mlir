// Three chunks for --split-input-file: the second does not parse.
func.func @first(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %c = arith.addi %a, %a : i32
  %d = arith.muli %b, %c : i32
  return %d : i32
}

// -----

func.func @second() -> i32 {
  return %nope : i32
}

// -----

func.func @third() {
  return
}
