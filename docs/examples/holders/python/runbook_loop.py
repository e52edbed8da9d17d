"""The runbook's Python holder: grant, put with the lease (the put's header revision is the fencing
token), and refresh at TTL/3 from a daemon thread, calling on_lost only when refresh() raises. Writes to
the fenced resource once per WRITE_EVERY_MS while on_lost has not been called; exits 0 after RUN_MS
(1: could not reach the cluster, 2: bad settings). Run with /usr/bin/python3 (Debian's python3-etcd3)."""

import threading
import time

import etcd3

from holder_env import Settings, fail, say

s = Settings("python-runbook")
try:
    client = etcd3.client(host=s.host, port=s.port)
    lease = client.lease(ttl=s.ttl)
    put = client.put(s.key, s.name, lease=lease)
except Exception as e:  # noqa: BLE001 - any failure to start is exit 1
    fail(1, "cannot grant and put: %r" % e)
token = put.header.revision
lost = threading.Event()
s.believe(True, lease=str(lease.id), token=token, key=s.key)


def on_lost():
    if not lost.is_set():
        lost.set()
        say("lost: refresh raised")
        s.believe(False, reason="refresh raised")


def heartbeat(lease, interval_s, stop_event, on_lost):
    # The runbook's loop; the only addition is printing what refresh() returned.
    while not stop_event.wait(interval_s):
        try:
            replies = lease.refresh()
            say("refresh ttl=%s" % [r.TTL for r in replies])
        except Exception:
            on_lost()
            return


stop_event = threading.Event()
threading.Thread(target=heartbeat, args=(lease, s.ttl / 3, stop_event, on_lost), daemon=True).start()

end = time.monotonic() + s.run_for
n = 0
while time.monotonic() < end:
    time.sleep(s.write_every)
    n += 1
    if not lost.is_set():
        s.write(token, "%s-%d" % (s.name, n))
stop_event.set()
if not lost.is_set():
    s.believe(False, reason="end")
say("done")
