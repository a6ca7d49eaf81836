// expected-error @+2 {{use of undeclared SSA value name}}
func.func @bad() -> i32 {
  return %nope : i32
}

// -----

func.func @good() {
  return
}
