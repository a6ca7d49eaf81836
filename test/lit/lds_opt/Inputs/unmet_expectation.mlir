// expected-error @+1 {{this is never reported}}
func.func @good() {
  return
}
