"""The kernel family of ldsopt-preload-transposed (seed 000): the collapsed problem and its
plan (`problem`), and the kernel of a plan (`emit`)."""
