#!/bin/sh
# A crashed member as etcdctl sees it through that member alone: n1 is killed 3 s after the start and
# started again at 9 s (by the harness on real etcd, by serve's scenario). While it is down its port
# refuses connections and etcdctl gives up after its dial timeout; once it is back it serves what the
# others wrote meanwhile.
. "$(dirname "$0")/lib.sh"

all="$ETCDCTL_ENDPOINTS"
export ETCDCTL_ENDPOINTS="${all%%,*}"
ctl put cm/k 1
echo "# n1 crashes at 3 s and restarts at 9 s"
# The look at n1 comes 2 s after its crash at the earliest: with 1 s, a loaded host let serve's paced
# clock or the harness's kill fall that far behind the script (seen twice in CI).
sleep 5
ctl get cm/k
export ETCDCTL_ENDPOINTS="${all#*,}"
ctl put cm/k 2
sleep 6
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
