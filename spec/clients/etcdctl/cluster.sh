#!/bin/sh
# etcdctl's cluster commands: member list (sorted by name: etcd lists members by their random IDs),
# endpoint status of all endpoints, then health and status with the headers `-w fields` shows for each
# endpoint alone (etcdctl prints health answers in the order they arrive).
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
