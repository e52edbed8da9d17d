#!/usr/bin/env bash
# The seed runbook's "Verification and testing" section, line by line, against the cluster in
# ETCDCTL_ENDPOINTS (real etcd, or lessor-sim serve). Each runbook line is printed as "$ LINE" before it
# runs, with its stdout and stderr after it and "[exit N]" when it fails; the transcript is compared with
# seed-verification.expected.txt after masking lease and cluster IDs, terms and client log lines
# (spec/differential/apps/transcript.ts). Additions to the runbook's lines, all marked "#+": the
# keep-alive's own output goes to a file (when it prints relative to SIGSTOP is a race), and the last put
# is re-run after a second acquisition, as the runbook's comment asks.
set -u
: "${ETCDCTL_ENDPOINTS:?set ETCDCTL_ENDPOINTS to the client URLs of the cluster}"
export ETCDCTL_ENDPOINTS
KA_LOG=$(mktemp) #+
trap 'rm -f "$KA_LOG"' EXIT #+

step() { # prints the runbook line, runs it, reports a non-zero exit
  printf '$ %s\n' "$1"
  eval "$1" 2>&1
  local rc=$?
  if [ "$rc" -ne 0 ]; then printf '[exit %d]\n' "$rc"; fi
  return 0
}

echo '# Grant, attach, and watch expiry manually'
step 'LEASE_ID=$(etcdctl lease grant 9 | awk '\''{print $2}'\'')'
step 'echo "$LEASE_ID"' #+ shows what the first line captured
step 'etcdctl put /locks/payment-42 owner-1 --lease="$LEASE_ID"'
step 'etcdctl get /locks/payment-42'

echo '# Simulate a stalled keepalive stream (GC pause)'
printf '$ %s\n' 'etcdctl lease keep-alive "$LEASE_ID" &'
etcdctl lease keep-alive "$LEASE_ID" >"$KA_LOG" 2>&1 &
KA_PID=$!
step 'kill -STOP "$KA_PID"'
step 'sleep 12'
step 'etcdctl get /locks/payment-42'
step 'kill -CONT "$KA_PID" 2>/dev/null; kill "$KA_PID" 2>/dev/null'
wait "$KA_PID" 2>/dev/null #+

echo '# Confirm automatic revocation and orphan detection'
step 'etcdctl lease timetolive "$LEASE_ID" --keys'
step 'etcdctl lease list --keys'

echo '# Verify the fencing revision is monotonically increasing'
step 'etcdctl put /locks/payment-42 owner-1 --lease="$LEASE_ID" -w json | grep '\''"revision"'\'''
echo '#+ a second acquisition, then the same put'
step 'LEASE_ID=$(etcdctl lease grant 9 | awk '\''{print $2}'\'')'
step 'etcdctl put /locks/payment-42 owner-1 --lease="$LEASE_ID" -w json | grep '\''"revision"'\'''
