#!/bin/sh
# etcdctl lock and elect, each with a second contender that must wait until the first lets go, and an
# election observer. Every wait is bounded (lib.sh), so a contender that never gets its turn shows as a
# line saying so.
. "$(dirname "$0")/lib.sh"

echo "# lock: A holds it, B waits, A is interrupted and unlocks, then B runs its command under the lock"
etcdctl lock conf-lock >"$tmp/a" 2>&1 &
a=$!
await_lines "$tmp/a" 2
show "$tmp/a"
etcdctl lock conf-lock -- sh -c 'echo "B holds $ETCD_LOCK_KEY at revision $ETCD_LOCK_REV"' >"$tmp/b" 2>&1 &
b=$!
sleep 1.5
echo "B's output while A holds the lock: $(lines "$tmp/b") lines"
kill -INT "$a"
await_exit "$a" "lock A"
await_exit "$b" "lock B"
show "$tmp/b"
ctl get --prefix conf-lock

echo "# elect: alpha leads, beta campaigns and waits, an observer follows; alpha is interrupted and resigns"
etcdctl elect -l conf-elect >"$tmp/obs" 2>&1 &
obs=$!
etcdctl elect conf-elect alpha >"$tmp/alpha" 2>&1 &
alpha=$!
await_lines "$tmp/alpha" 2
show "$tmp/alpha"
etcdctl elect conf-elect beta >"$tmp/beta" 2>&1 &
beta=$!
sleep 1.5
echo "beta's output while alpha leads: $(lines "$tmp/beta") lines"
kill -INT "$alpha"
await_exit "$alpha" "elect alpha"
await_lines "$tmp/beta" 2
show "$tmp/beta"
await_lines "$tmp/obs" 4
kill -INT "$beta"
await_exit "$beta" "elect beta"
kill -INT "$obs"
await_exit "$obs" "elect -l"
echo "observer saw:"
show "$tmp/obs"
ctl get --prefix conf-elect
