// What every Node holder here shares with the test harness: where the cluster is (ETCDCTL_ENDPOINTS or
// ETCD_ENDPOINTS, every member; npm etcd3 spreads calls over them), the fenced resource it writes to
// (RESOURCE_URL) and where it reports what it believes (BELIEFS_URL/HOLDER_NAME). Nothing here knows
// which strategy is running.
import { request } from 'node:http';
import { Etcd3 } from 'etcd3';

export function fail(code, message) {
  process.stderr.write(`holder: ${message}\n`);
  process.exit(code);
}

export function say(message) {
  process.stdout.write(`${message}\n`);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds on a clock that only moves forward (Date.now may jump; this does not). */
export const monotonicMs = () => performance.now();

function millis(name, fallback) {
  const raw = process.env[name] || String(fallback);
  if (!/^\d+$/.test(raw)) fail(2, `${name} must be a whole number of milliseconds`);
  return Number(raw);
}

export class Settings {
  constructor(strategy) {
    const raw = process.env.ETCDCTL_ENDPOINTS || process.env.ETCD_ENDPOINTS;
    if (!raw) fail(2, 'set ETCDCTL_ENDPOINTS or ETCD_ENDPOINTS (comma-separated URLs)');
    this.hosts = raw.split(',');
    this.name = process.env.HOLDER_NAME || strategy;
    this.key = process.env.LOCK_KEY || '/locks/payment-42';
    const ttl = process.env.LEASE_TTL || '9';
    if (!/^\d+$/.test(ttl) || Number(ttl) < 1) fail(2, 'LEASE_TTL must be a whole number of seconds >= 1');
    this.ttl = Number(ttl);
    this.runMs = millis('RUN_MS', 30000);
    this.writeEveryMs = millis('WRITE_EVERY_MS', 1000);
    this.marginMs = millis('MARGIN_MS', 1000);
    this.resource = process.env.RESOURCE_URL;
    this.beliefs = process.env.BELIEFS_URL;
  }

  client() {
    return new Etcd3({ hosts: this.hosts, dialTimeout: 5000 });
  }

  /**
   * One POST on a fresh connection: a kept-alive one may have been closed by the server while this process
   * was stopped, and reusing it would lose the request.
   */
  post(url, body) {
    return new Promise((resolve, reject) => {
      const data = JSON.stringify(body);
      const req = request(
        url,
        { method: 'POST', agent: false, timeout: 2000, headers: { 'content-type': 'application/json' } },
        (resp) => {
          resp.resume();
          resp.on('end', () => resolve(resp.statusCode));
        },
      );
      req.on('timeout', () => req.destroy(new Error('no answer within 2 s')));
      req.on('error', reject);
      req.end(data);
    });
  }

  /** Offers one write with the fencing token; true when the resource accepted it. */
  async write(token, value) {
    if (!this.resource) {
      say(`write token=${token} (no RESOURCE_URL)`);
      return true;
    }
    try {
      const code = await this.post(this.resource, { holder: this.name, token, value });
      say(`write token=${token} ${code === 200 ? 'accepted' : 'rejected'}`);
      return code === 200;
    } catch (e) {
      say(`write token=${token} error=${JSON.stringify(String(e))}`);
      return false;
    }
  }

  /** Reports what the holder now believes; extra carries lease, token, key, validForMs or reason. */
  async believe(holding, extra) {
    say(`belief holding=${holding} ${JSON.stringify(extra)}`);
    if (!this.beliefs) return;
    try {
      await this.post(`${this.beliefs}/${encodeURIComponent(this.name)}`, { holding, ...extra });
    } catch (e) {
      say(`belief not delivered: ${e}`);
    }
  }
}
