#!/bin/sh
# etcdctl's cluster commands: member list (sorted by name: etcd lists members by their random IDs),
# endpoint status of all endpoints, then health and status with the headers `-w fields` shows for each
# endpoint alone (etcdctl prints health answers in the order they arrive); what a client without
# credentials does when auth is off; alarm, defrag and hashkv; move-leader.
. "$(dirname "$0")/lib.sh"

echo "\$ etcdctl member list | sort by name"
etcdctl member list | sort -t, -k3
ctl endpoint status
ctl put c/k v
on_first get -w fields c/k
all="$ETCDCTL_ENDPOINTS"
for ep in $(echo "$all" | tr , ' '); do
  export ETCDCTL_ENDPOINTS="$ep"
  ctl endpoint health
  ctl endpoint status -w fields
done
export ETCDCTL_ENDPOINTS="$all"
echo "# auth is not enabled: etcdctl carries on without a token"
ctl --user root:secret put c/auth v
ctl --user root:secret get c/auth
ctl alarm list
ctl defrag
ctl endpoint hashkv
echo "# move-leader, sent to the leader n1"
n2=$(etcdctl member list | awk -F', ' '$3 == "n2" { print $1 }')
on_first move-leader 1234
on_first move-leader "$n2"
ctl endpoint status
