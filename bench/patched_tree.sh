# Sourced by the halves of bench/results/*/prepare.sh that build from a patch never landed:
# `patched_tree COMMIT PATCH` makes a worktree of COMMIT with PATCH applied
# and the link to passes/ that the editable install maps, in $tree, removed when the script
# exits. Build there with PYTHONPATH="$tree".
patched_tree() {
  local patch
  patch=$(realpath "$2")
  tree=$(mktemp -d)
  trap 'git worktree remove --force "$tree"' EXIT
  git worktree add -q --detach "$tree" "$1"
  (cd "$tree" && git apply "$patch" && ln -s ../passes ldsopt/passes)
}
