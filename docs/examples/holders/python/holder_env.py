"""What every Python holder here shares with the test harness: where the cluster is (ETCDCTL_ENDPOINTS
or ETCD_ENDPOINTS; python-etcd3 0.12 talks to one endpoint, the first), the fenced resource it writes to
(RESOURCE_URL) and where it reports what it believes (BELIEFS_URL/HOLDER_NAME)."""

import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request


def fail(code, message):
    print("holder: " + message, file=sys.stderr, flush=True)
    sys.exit(code)


def say(message):
    print(message, flush=True)


def _millis(name, fallback):
    raw = os.environ.get(name) or str(fallback)
    if not raw.isdigit():
        fail(2, name + " must be a whole number of milliseconds")
    return int(raw) / 1000.0


class Settings:
    def __init__(self, strategy):
        raw = os.environ.get("ETCDCTL_ENDPOINTS") or os.environ.get("ETCD_ENDPOINTS")
        if not raw:
            fail(2, "set ETCDCTL_ENDPOINTS or ETCD_ENDPOINTS (comma-separated URLs)")
        first = raw.split(",")[0]
        url = urllib.parse.urlsplit(first if "://" in first else "http://" + first)
        self.host = url.hostname
        self.port = url.port or 2379
        self.name = os.environ.get("HOLDER_NAME") or strategy
        self.key = os.environ.get("LOCK_KEY") or "/locks/payment-42"
        ttl = os.environ.get("LEASE_TTL") or "9"
        if not ttl.isdigit() or int(ttl) < 1:
            fail(2, "LEASE_TTL must be a whole number of seconds >= 1")
        self.ttl = int(ttl)
        self.run_for = _millis("RUN_MS", 30000)
        self.write_every = _millis("WRITE_EVERY_MS", 1000)
        self.margin = _millis("MARGIN_MS", 1000)
        self.resource = os.environ.get("RESOURCE_URL")
        self.beliefs = os.environ.get("BELIEFS_URL")

    def _post(self, url, body):
        req = urllib.request.Request(
            url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=2) as resp:
                return resp.status
        except urllib.error.HTTPError as e:
            return e.code

    def write(self, token, value):
        """Offers one write with the fencing token; True when the resource accepted it."""
        if not self.resource:
            say("write token=%d (no RESOURCE_URL)" % token)
            return True
        try:
            code = self._post(self.resource, {"holder": self.name, "token": token, "value": value})
        except OSError as e:
            say("write token=%d error=%r" % (token, str(e)))
            return False
        say("write token=%d %s" % (token, "accepted" if code == 200 else "rejected"))
        return code == 200

    def believe(self, holding, **extra):
        say("belief holding=%s %s" % (str(holding).lower(), extra))
        if not self.beliefs:
            return
        try:
            self._post(self.beliefs + "/" + urllib.parse.quote(self.name, safe=""), dict(holding=holding, **extra))
        except OSError as e:
            say("belief not delivered: %s" % e)
