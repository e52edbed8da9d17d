#!/bin/sh
# A crashed member as etcdctl sees it through that member alone: n1 is killed 3 s after the start and
# started again at 13 s (by the harness on real etcd, by serve's scenario). While it is down its port
# refuses connections and etcdctl gives up after its dial timeout; once it is back it serves what the
# others wrote meanwhile.
. "$(dirname "$0")/lib.sh"

all="$ETCDCTL_ENDPOINTS"
export ETCDCTL_ENDPOINTS="${all%%,*}"
ctl put cm/k 1
echo "# n1 crashes at 3 s and restarts at 13 s"
# The look at n1 must start after its crash and at least etcdctl's 2 s dial timeout before its restart,
# or a retried dial reaches the restarted n1. At 5 s after the start, whatever the put took, it has 2 s on
# one side and 6 s on the other: a loaded host (serve's clock ahead of the script by its start-up, the
# harness's kill late) moved a look 1 s after the crash, then one 2 s before the restart's dial window, to
# the wrong side in CI.
at_second 5
ctl get cm/k
export ETCDCTL_ENDPOINTS="${all#*,}"
ctl put cm/k 2
at_second 15
export ETCDCTL_ENDPOINTS="${all%%,*}"
# A restarted member answers once it has replayed its log and caught up: how long that takes is the
# machine's business, so the script retries (up to 20 s) before it looks.
i=0
until etcdctl get cm/k >/dev/null 2>&1 || [ "$i" -ge 40 ]; do
  i=$((i + 1))
  sleep 0.5
done
ctl get cm/k
ctl put cm/k 3
export ETCDCTL_ENDPOINTS="$all"
ctl get cm/k
on_first endpoint health
