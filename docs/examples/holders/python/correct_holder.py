"""A Python holder that stops acting at its own deadline. Each refresh() is given TTL/3 to answer (the
client's timeout); a refresh sent at S and answered with TTL T > 0 lets it act until S+T-margin on its
monotonic clock. Before every write it checks that deadline, so a stall past it ends its acting however
late it wakes; an answer with TTL <= 0 (the lease is gone) ends it at once. It takes the lock only when
the key is free (a transaction on the key's create revision). Exits 0 after RUN_MS (1: could not reach
the cluster, 2: bad settings). Run with /usr/bin/python3 (Debian's python3-etcd3)."""

import threading
import time

import etcd3

from holder_env import Settings, fail, say

s = Settings("python-correct")
try:
    client = etcd3.client(host=s.host, port=s.port, timeout=s.ttl / 3)
except Exception as e:  # noqa: BLE001 - any failure to start is exit 1
    fail(1, "cannot connect: %r" % e)
end = time.monotonic() + s.run_for


def acquire():
    while time.monotonic() < end:
        sent = time.monotonic()
        try:
            lease = client.lease(ttl=s.ttl)
            won, _ = client.transaction(
                compare=[client.transactions.create(s.key) == 0],
                success=[client.transactions.put(s.key, s.name, lease)],
                failure=[],
            )
            if won:
                value, meta = client.get(s.key)
                if value is not None and value.decode() == s.name:
                    return lease, meta.mod_revision, sent + s.ttl
            lease.revoke()
        except Exception as e:  # noqa: BLE001 - retry until the run ends
            say("acquire failed: %r" % e)
        time.sleep(0.3)
    return None


got = acquire()
if got is None:
    say("never acquired %s" % s.key)
    raise SystemExit(0)
lease, token, expiry = got
lock = threading.Lock()
state = {"until": expiry - s.margin, "done": False}


def valid_for_ms():
    return int((state["until"] - time.monotonic()) * 1000)


def acting():
    with lock:
        return not state["done"] and time.monotonic() < state["until"]


def stop(why):
    with lock:
        if state["done"]:
            return
        state["done"] = True
        late = max(0.0, time.monotonic() - state["until"])
    say("stopped: " + why)
    s.believe(False, reason=why, stoppedAgoMs=int(late * 1000))


s.believe(True, lease=str(lease.id), token=token, key=s.key, validForMs=valid_for_ms())


def renew():
    every = s.ttl / 3
    while time.monotonic() < end and not state["done"]:
        time.sleep(every)
        sent = time.monotonic()
        try:
            replies = lease.refresh()
        except Exception as e:  # noqa: BLE001 - a failed renewal only means no extension
            say("renewal failed: %r" % e)
            continue
        ttl = replies[0].TTL if replies else 0
        if ttl <= 0:
            stop("lease expired")
            return
        with lock:
            if not state["done"]:
                state["until"] = max(state["until"], sent + ttl - s.margin)
        say("renewed ttl=%d" % ttl)
        if acting():
            s.believe(True, lease=str(lease.id), token=token, key=s.key, validForMs=valid_for_ms())


threading.Thread(target=renew, daemon=True).start()
n = 0
while time.monotonic() < end:
    time.sleep(s.write_every)
    n += 1
    if acting():
        s.write(token, "%s-%d" % (s.name, n))
    else:
        stop("own deadline passed")
stop("end")
try:
    lease.revoke()
except Exception:  # noqa: BLE001 - the lease may be gone already
    pass
say("done")
