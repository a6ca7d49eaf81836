// Not UTF-8: a Latin-1 byte in a comment.
func.func @f() {
  // café
  return
}
