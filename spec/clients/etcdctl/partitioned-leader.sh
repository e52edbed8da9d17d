#!/bin/sh
# A partitioned leader under etcdctl's keep-alive through it alone: serve's scenario cuts n1, the leader,
# off from n2 and n3 from 3 s to 16 s after the start. The keep-alive talks to n1 only; the checks after
# the partition read through n2 (the majority) and, serializably, through n1 (what it still holds).
. "$(dirname "$0")/lib.sh"

all="$ETCDCTL_ENDPOINTS"
n1="${all%%,*}"
rest="${all#*,}"
n2="${rest%%,*}"
export ETCDCTL_ENDPOINTS="$n1"
ctl lease grant 5
id=$(awk '/^lease .* granted/ { print $2 }' "$tmp/ctl.out")
ctl put --lease="$id" part/k v
etcdctl lease keep-alive "$id" >"$tmp/ka" 2>&1 &
ka=$!
echo "# n1 is cut off from n2 and n3 from 3 s to 16 s"
# The looks fall between the majority's revoke (about 10 s) and the heal (16 s), then well after the heal,
# counted from the start whatever the commands before them took.
at_second 13
export ETCDCTL_ENDPOINTS="$n2"
ctl lease timetolive --keys "$id"
ctl get part/k
export ETCDCTL_ENDPOINTS="$n1"
ctl get --consistency=s part/k
await_exit "$ka" keep-alive
show_once "$tmp/ka"
at_second 21
ctl get --consistency=s part/k
