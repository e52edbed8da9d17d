#!/bin/sh
# etcdctl's lease commands: grant, put with --lease, timetolive with and without --keys, keep-alive --once,
# list, keep-alive in the background (which outlives the TTL, then stops and lets the lease expire), a
# background keep-alive that a revoke from another etcdctl ends, and revoke; then what each command says
# about a lease that is gone.
. "$(dirname "$0")/lib.sh"

ctl lease grant 60
id=$(awk '/^lease .* granted/ { print $2 }' "$tmp/ctl.out")
ctl put --lease="$id" lease/a 1
ctl put --lease="$id" lease/b 2
ctl lease timetolive "$id"
ctl lease timetolive --keys "$id"
ctl lease keep-alive --once "$id"
ctl lease list

echo "# keep-alive in the background for 5 s on a 3 s lease, then stopped"
ctl lease grant 3
short=$(awk '/^lease .* granted/ { print $2 }' "$tmp/ctl.out")
etcdctl lease keep-alive "$short" >"$tmp/ka" 2>&1 &
ka=$!
sleep 5
ctl lease timetolive "$short"
kill -TERM "$ka"
await_exit "$ka" keep-alive
show_once "$tmp/ka"
sleep 4.5
ctl lease timetolive "$short"

echo "# keep-alive in the background while another etcdctl revokes the lease"
ctl lease grant 6
other=$(awk '/^lease .* granted/ { print $2 }' "$tmp/ctl.out")
etcdctl lease keep-alive "$other" >"$tmp/ka2" 2>&1 &
ka2=$!
await_lines "$tmp/ka2" 1
ctl lease revoke "$other"
await_exit "$ka2" keep-alive
show_once "$tmp/ka2"

echo "# revoke, and the lease once gone"
ctl lease revoke "$id"
ctl get --prefix lease/
ctl lease revoke "$id"
ctl lease keep-alive --once "$id"
ctl lease timetolive --keys "$id"
ctl lease list
ctl lease grant 0
echo "# a lease that was never granted"
ctl lease timetolive 1234abcd
ctl lease keep-alive --once 1234abcd
ctl lease revoke 1234abcd
ctl put --lease=1234abcd lease/c 3
ctl lease keep-alive 1234abcd
