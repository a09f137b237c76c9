# Sourced by .ci/run and .ci/alongside: steps that time themselves, and jobs in the background
# (installs, a lane of checks) that any of them can wait for.

# Each step's wall time: `step TITLE` closes the previous step's clock and opens one;
# `step_table` prints them, slowest first, with the total.
STEP_TIMES="$(mktemp "${TMPDIR:-/tmp}/webtext-ci-steps.XXXXXX")"
CI_STARTED=$SECONDS STEP_STARTED=$SECONDS STEP_TITLE=""
step() {
  if [ -n "$STEP_TITLE" ]; then
    printf '%6d s  %s\n' "$((SECONDS - STEP_STARTED))" "${STEP_TITLE:0:110}" >> "$STEP_TIMES"
  fi
  STEP_TITLE="$1" STEP_STARTED=$SECONDS
  if [ -n "$1" ]; then
    echo "== $1"
  fi
}
step_table() {
  step ""
  echo "== time per step (total $((SECONDS - CI_STARTED)) s)"
  sort -rn "$STEP_TIMES"
  rm -f "$STEP_TIMES"
}

# Jobs in the background: `background NAME COMMAND...` runs COMMAND in a session of its own (so
# that `stop_background` stops it with everything it started), its output in NAME's log;
# `await_background NAME` waits for it from any shell (its status is a file) and fails with its
# log if it failed; `show_background NAME` prints the log of a job that succeeded.
# BACKGROUND is the folder of the logs, made by .ci/run and inherited by what it starts.
background() {
  local name=$1
  shift
  (
    setsid -w "$@" > "$BACKGROUND/$name.log" 2>&1 &
    echo $! > "$BACKGROUND/$name.pid"
    status=0
    wait $! || status=$?
    echo "$status" > "$BACKGROUND/$name.status.partial"
    mv "$BACKGROUND/$name.status.partial" "$BACKGROUND/$name.status"
  ) &
}
await_background() {
  while [ ! -f "$BACKGROUND/$1.status" ]; do
    sleep 1
  done
  if [ "$(cat "$BACKGROUND/$1.status")" != 0 ]; then
    echo "== $1 failed:" >&2
    cat "$BACKGROUND/$1.log" >&2
    exit 1
  fi
}
show_background() {
  cat "$BACKGROUND/$1.log"
}
stop_background() {
  local pid
  for pid in "$BACKGROUND"/*.pid; do
    [ -f "$pid" ] && kill -- -"$(cat "$pid")" 2> /dev/null || true
  done
}
# An install of tools/ci_installs.sh, niced: it takes what the build and checks leave idle.
install_in_background() {
  background "install-$1" nice -n 19 bash tools/ci_installs.sh "$1"
}
await_install() {
  await_background "install-$1"
}
