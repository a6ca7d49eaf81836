"""What the tools share in how they treat a user's world: argument values checked before any
work (`arguments`), files written without destroying what a path names (`output_file`), kept
folders locked against a second run (`folder_lock`), and SIGINT/SIGTERM turned into a clean
exit (`interrupts`). Standard library only: the tools import these before IREE."""
