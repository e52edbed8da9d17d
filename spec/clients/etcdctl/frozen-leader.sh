#!/bin/sh
# A frozen leader while etcdctl keeps a lease alive through a follower: everything goes to n2 (the second
# endpoint); the harness (or serve's scenario) pauses n1, the leader, from 3 s to 13 s after the start.
# What etcd 3.4.23 does is in the golden transcript: the keep-alive is told the lease expired.
. "$(dirname "$0")/lib.sh"

all="$ETCDCTL_ENDPOINTS"
rest="${all#*,}"
export ETCDCTL_ENDPOINTS="${rest%%,*}"
ctl lease grant 10
id=$(awk '/^lease .* granted/ { print $2 }' "$tmp/ctl.out")
ctl put --lease="$id" frozen/k v
etcdctl lease keep-alive "$id" >"$tmp/ka" 2>&1 &
ka=$!
echo "# n1 is paused from 3 s to 13 s"
# The look comes well after the new leader expires the lease (its Promote gives it a fresh TTL at about 4 s,
# later when the election is slow; a look at 16 s once found it expired but not yet revoked on a loaded host).
at_second 19
ctl lease timetolive --keys "$id"
ctl get frozen/k
kill -TERM "$ka"
await_exit "$ka" keep-alive
show_once "$tmp/ka"
ctl lease revoke "$id"
