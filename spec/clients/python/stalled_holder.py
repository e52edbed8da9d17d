"""A python-etcd3 0.12 lease holder whose own process stalls past its TTL (the runbook's Python fault).

The holder refreshes a 4 s lease every second and prints each change of the TTL the refresh returns; the
harness stops the whole process (SIGSTOP) 2 s after the start and continues it 7 s later. After that the
lease has expired: refresh returns TTL 0 without raising, so a loop that only checks for exceptions never
notices. Run with /usr/bin/python3; the first endpoint of ETCDCTL_ENDPOINTS is the one it talks to.
"""

import os
import sys
import time
from urllib.parse import urlsplit

import etcd3

TIMEOUT = 10


def say(*parts):
    print(*parts, flush=True)


def main():
    first = urlsplit(os.environ["ETCDCTL_ENDPOINTS"].split(",")[0])
    c = etcd3.client(host=first.hostname, port=first.port, timeout=TIMEOUT)
    start = time.monotonic()
    lease = c.lease(4)
    c.put("py/stall/k", "held", lease=lease)
    say("lease %016x granted with TTL(%d); py/stall/k put with it" % (lease.id, lease.ttl))
    say("# the process is stopped from 2 s to 9 s")
    last = None
    while time.monotonic() - start < 13:
        ttls = [a.TTL for a in lease.refresh()]
        if ttls != last:
            say("refresh:", ["TTL(%d)" % t for t in ttls], "(no exception)")
            last = ttls
        time.sleep(1)
    value, _ = c.get("py/stall/k")
    say("py/stall/k after the stall:", value)
    say("time to live:", c.get_lease_info(lease.id).TTL)


if __name__ == "__main__":
    sys.exit(main())
