"""python-etcd3 0.12 against an etcd v3 endpoint, for the client conformance suite.

Lease, refresh (also of an expired lease), TimeToLive, put, get, get_prefix, put_if_not_exists, replace,
delete, delete_prefix, watch (also from a compacted revision), watch_once, transaction, compact, an
uncontended lock (0.12's contended acquire crashes with Debian's retry library, against real etcd too),
status and members; one line per outcome a caller observes, lease IDs in hex. Run with /usr/bin/python3
(Debian's etcd3 package); the first endpoint of ETCDCTL_ENDPOINTS is the one it talks to.
"""

import os
import sys
import time
from urllib.parse import urlsplit

import etcd3
import grpc

# A bounded call: a server that never answers raises a deadline error instead of hanging the suite.
TIMEOUT = 10


def say(*parts):
    print(*parts, flush=True)


def kv(value, meta):
    if value is None:
        return "none"
    return "%s=%s create=%d mod=%d version=%d lease=%016x" % (
        meta.key.decode(),
        value.decode(),
        meta.create_revision,
        meta.mod_revision,
        meta.version,
        meta.lease_id,
    )


def info(c, lease_id):
    t = c.get_lease_info(lease_id)
    keys = sorted(k.decode() for k in t.keys)
    return "lease %016x granted with TTL(%ds), remaining(%ds), keys %s" % (t.ID, t.grantedTTL, t.TTL, keys)


def main():
    first = urlsplit(os.environ["ETCDCTL_ENDPOINTS"].split(",")[0])
    c = etcd3.client(host=first.hostname, port=first.port, timeout=TIMEOUT)

    lease = c.lease(10)
    say("lease %016x granted with TTL(%d)" % (lease.id, lease.ttl))
    say("put py/a with lease: revision", c.put("py/a", "1", lease=lease).header.revision)
    say("put py/b: revision", c.put("py/b", "2").header.revision)
    say("put py/c: revision", c.put("py/c", "3").header.revision)
    say("get py/a:", kv(*c.get("py/a")))
    say("get py/missing:", kv(*c.get("py/missing")))
    for value, meta in c.get_prefix("py/"):
        say("get_prefix py/:", kv(value, meta))
    answers = lease.refresh()
    say("refresh:", ["lease %016x TTL(%d)" % (a.ID, a.TTL) for a in answers])
    say("time to live:", info(c, lease.id))

    ok, responses = c.transaction(
        compare=[c.transactions.value("py/b") == "2", c.transactions.version("py/c") > 0],
        success=[c.transactions.put("py/t", "yes"), c.transactions.get("py/b")],
        failure=[c.transactions.put("py/t", "no")],
    )
    say("transaction (both compares hold):", ok, len(responses))
    ok, _ = c.transaction(
        compare=[c.transactions.mod("py/b") > 100],
        success=[c.transactions.put("py/t", "yes")],
        failure=[c.transactions.delete("py/t")],
    )
    say("transaction (mod revision compare fails):", ok, "py/t is", kv(*c.get("py/t")))

    events, cancel = c.watch_prefix("py/", start_revision=1)
    seen = []
    for event in events:
        seen.append("%s %s=%s mod=%d" % (type(event).__name__, event.key.decode(), event.value.decode(), event.mod_revision))
        if len(seen) == 5:
            cancel()
    for line in seen:
        say("watch_prefix py/ from revision 1:", line)

    say("delete py/b:", c.delete("py/b"))
    say("delete py/b again:", c.delete("py/b"))

    lock = c.lock("py-lock", ttl=10)
    say("lock acquire:", lock.acquire(timeout=TIMEOUT), "held:", lock.is_acquired())
    say("lock release:", lock.release(), "held:", lock.is_acquired())

    status = c.status()
    say("status: version", status.version, "leader", status.leader.name)
    for m in sorted(c.members, key=lambda m: m.name):
        say("member", m.name, "id %x" % m.id, "client urls", list(m.client_urls))

    lease.revoke()
    say("revoke: done; get py/a:", kv(*c.get("py/a")))
    answers = lease.refresh()
    say("refresh after revoke:", ["lease %016x TTL(%d)" % (a.ID, a.TTL) for a in answers])
    say("time to live after revoke:", info(c, lease.id))
    try:
        lease.revoke()
        say("revoke again: no error")
    except grpc.RpcError as e:
        say("revoke again:", e.code(), e.details())

    # A lease left to expire: etcd raises a 1 s TTL to its minimum; refresh then answers TTL 0 without raising.
    short = c.lease(1)
    say("lease(1): TTL", short.ttl, "granted TTL", short.granted_ttl)
    c.put("py/short", "x", lease=short)
    time.sleep(short.ttl + 2)
    say("refresh of an expired lease:", ["TTL(%d)" % a.TTL for a in short.refresh()])
    say("get py/short after expiry:", kv(*c.get("py/short")))

    say("put_if_not_exists py/n:", c.put_if_not_exists("py/n", "1"), c.put_if_not_exists("py/n", "2"))
    say("replace py/n 1 -> 3:", c.replace("py/n", "1", "3"), "2 -> 4:", c.replace("py/n", "2", "4"))
    say("get py/n:", kv(*c.get("py/n")))
    try:
        c.watch_once("py/none", timeout=1)
        say("watch_once py/none: an event")
    except etcd3.exceptions.WatchTimedOut:
        say("watch_once py/none: timed out")
    revision = c.put("py/last", "1").header.revision
    say("put py/last: revision", revision)
    c.compact(revision - 1)
    events, cancel = c.watch("py/c", start_revision=2)
    try:
        for event in events:
            say("watch from a compacted revision: event", event.key.decode())
            break
    except etcd3.exceptions.RevisionCompactedError as e:
        say("watch from a compacted revision:", type(e).__name__, "compacted revision", e.compacted_revision)
    cancel()
    say("delete_prefix py/: deleted", c.delete_prefix("py/").deleted)


if __name__ == "__main__":
    sys.exit(main())
