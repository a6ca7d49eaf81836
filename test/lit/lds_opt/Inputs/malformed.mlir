// A function whose body does not parse: the error must point at line 4.
func.func @f(%a: i32) -> i32 {
  %x = arith.addi %a, %a : i32
  %y = arith.addi %x, : i32
  return %y : i32
}
