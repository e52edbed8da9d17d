# Helpers the etcdctl scripts source. Every call is bounded, so a server that never answers ends the script
# with a visible "exit 124" line instead of hanging the suite.

# ctl ARGS...: "$ etcdctl ARGS", then what etcdctl printed (stdout and stderr in order, without clientv3's
# zap warning lines, which carry timestamps and only repeat the error etcdctl prints), then "exit N".
ctl() {
  echo "\$ etcdctl $*"
  timeout 20 etcdctl "$@" >"$tmp/ctl.out" 2>&1
  echo "exit $?" >"$tmp/ctl.rc"
  grep -av '^{"level":' "$tmp/ctl.out"
  cat "$tmp/ctl.rc"
}

# on_first ARGS...: ctl against the first endpoint alone, where the answering member shows (MemberID in
# `-w fields`); etcdctl picks among several endpoints as it likes. (etcdctl refuses --endpoints beside
# ETCDCTL_ENDPOINTS, hence the variable.)
on_first() {
  all="$ETCDCTL_ENDPOINTS"
  export ETCDCTL_ENDPOINTS="${all%%,*}"
  ctl "$@"
  export ETCDCTL_ENDPOINTS="$all"
}

# lines FILE: how many lines FILE has besides zap warning lines; 0 before a background command has even
# created its output file.
lines() {
  n=$(grep -avc '^{"level":' "$1" 2>/dev/null)
  echo "${n:-0}"
}

# await_lines FILE N: waits up to 20 s until FILE has at least N lines besides zap warning lines; says so
# if it never does.
await_lines() {
  i=0
  while [ "$(lines "$1")" -lt "$2" ]; do
    i=$((i + 1))
    if [ "$i" -gt 200 ]; then
      echo "(waited 20 s for $2 lines of output, got $(lines "$1"))"
      return 1
    fi
    sleep 0.1
  done
}

# await_exit PID NAME: waits up to 20 s for a background command to end, then prints "NAME exit N" (124 if
# it had to be killed).
await_exit() {
  i=0
  while kill -0 "$1" 2>/dev/null; do
    i=$((i + 1))
    if [ "$i" -gt 200 ]; then
      kill -KILL "$1" 2>/dev/null
      wait "$1" 2>/dev/null
      echo "$2 exit 124"
      return
    fi
    sleep 0.1
  done
  wait "$1"
  echo "$2 exit $?"
}

# show FILE: a background command's output without zap warning lines.
show() {
  grep -av '^{"level":' "$1"
}

# show_once FILE: the same with runs of one repeated line (keep-alive answers, whose count depends on
# timing) printed once.
show_once() {
  grep -av '^{"level":' "$1" | uniq
}

# at_second N: sleeps until N seconds after the script started (sourcing this file), however long the
# commands before took; for a look that must fall between two fault instants of the harness or scenario.
started_ns=$(date +%s%N)
at_second() {
  now_ns=$(date +%s%N)
  left_ms=$(($1 * 1000 - (now_ns - started_ns) / 1000000))
  [ "$left_ms" -gt 0 ] && sleep "$((left_ms / 1000)).$(printf %03d $((left_ms % 1000)))"
  return 0
}

# No pipes or ( ) into these helpers: a subshell would run the EXIT trap and remove $tmp.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
