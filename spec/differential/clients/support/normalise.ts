// A client transcript with what differs between two runs of the same script on two fresh real etcd
// clusters replaced by placeholders, and nothing else. Each rule names what varies and why; values a wrong
// model would change (keys, values, revisions, TTLs granted, errors, exit codes, the order of lines) stay.
//
// - Endpoints: the ports are picked at run time. Each target endpoint becomes <n1>, <n2>, <n3> by position;
//   any other 127.0.0.1 port (a member's peer URL) becomes <peer:K> by first appearance.
// - IDs (lease, member, cluster): etcd derives them from the member ID and the clock. Each distinct value
//   becomes <id:K> in order of first appearance, compared by value so the padded (%016x) and unpadded (%x)
//   hex forms of one lease map to one placeholder; a model that hands two leases one ID still shows.
//   Hex with at least one letter and 8 to 16 digits, or decimal with 15 to 20 digits, is an ID; zero
//   (python-etcd3's lease=0000000000000000 for a key without a lease) is not.
// - Raft term (also raft_term in -w json), raft index, applied index and database size: the term depends
//   on how many elections it took to make n1 the leader, the index on the launcher's settling commits, the
//   size on bbolt's pages.
// - Durations printed by `endpoint health`.
// - The order of a lease's attached keys: etcd keeps them in a Go map and answers TimeToLive in the map's
//   (random) iteration order; `attached keys([...])` is sorted.
// - Remaining TTL: a TimeToLive answer a moment after a renewal says TTL-1 (etcd truncates to whole
//   seconds) and under load one or two less; remaining(N) with T-3 <= N <= T-1 becomes remaining(T-1~).
//   A remaining TTL equal to the granted one (no truncation) or beyond the window stays as printed.

const HEX_ID = /^(?=[0-9]*[a-f])[0-9a-f]{8,16}$/;
const DEC_ID = /^[0-9]{15,20}$/;

class Ordinals {
  private readonly seen = new Map<string, number>();
  of(key: string): number {
    let n = this.seen.get(key);
    if (n === undefined) {
      n = this.seen.size + 1;
      this.seen.set(key, n);
    }
    return n;
  }
}

function hostPort(url: string): string {
  return url.replace(/^[a-z]+:\/\//, '');
}

export function normalise(transcript: string, endpoints: readonly string[]): string {
  const ids = new Ordinals();
  const peers = new Ordinals();
  const members = new Map(endpoints.map((e, i) => [hostPort(e), `<n${i + 1}>`]));
  return transcript
    .split('\n')
    .map((line) => {
      let l = line.replace(/(?:https?:\/\/)?127\.0\.0\.1:(\d+)/g, (_, port: string) => {
        return members.get(`127.0.0.1:${port}`) ?? `<peer:${peers.of(port)}>`;
      });
      l = l.replace(/\b[0-9a-f]{8,20}\b/g, (tok) => {
        const value = HEX_ID.test(tok) ? BigInt(`0x${tok}`) : DEC_ID.test(tok) ? BigInt(tok) : 0n;
        return value === 0n ? tok : `<id:${ids.of(value.toString())}>`;
      });
      // `endpoint status`: endpoint, ID, version, DB size, is leader, is learner, term, index, applied, errors.
      l = l.replace(
        /^(<n\d+>, <id:\d+>, [^,]+), [^,]+, (true|false), (true|false), \d+, \d+, \d+, /,
        '$1, <db size>, $2, $3, <term>, <index>, <applied>, ',
      );
      l = l.replace(/^("RaftTerm" : )\d+$/, '$1<term>');
      l = l.replace(/"raft_term":\d+/g, '"raft_term":<term>');
      l = l.replace(/^"(DBSize|DBSizeInUse|RaftIndex|RaftAppliedIndex)" : \d+$/, (_, f: string) => `"${f}" : <${f}>`);
      l = l.replace(/took = [0-9.]+[µnm]?s/, 'took = <duration>');
      l = l.replace(
        /attached keys\(\[([^\]]*)\]\)/,
        (_, keys: string) => `attached keys([${keys.split(' ').sort().join(' ')}])`,
      );
      l = l.replace(/TTL\((\d+)s\), remaining\((-?\d+)s\)/, (whole, ttl: string, rem: string) => {
        const t = Number(ttl);
        const r = Number(rem);
        return r >= t - 3 && r <= t - 1 && r >= 0 ? `TTL(${t}s), remaining(${t - 1}~s)` : whole;
      });
      return l;
    })
    .join('\n');
}
