/**
 * A shell transcript with what differs between two clusters masked: lease IDs (etcdctl prints them as 16
 * hex digits), cluster and member IDs and raft terms in `-w json` headers, and clientv3's JSON log lines
 * (timestamp, client ID, port) reduced to their message and error. Revisions stay: both clusters start
 * empty, so the same commands give the same revisions.
 */
export function normaliseTranscript(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (line.startsWith('{"level":')) {
        try {
          const j = JSON.parse(line) as { level?: string; msg?: string; error?: string };
          return `<client ${j.level}: ${j.msg}${j.error === undefined ? '' : `: ${j.error}`}>`;
        } catch {
          return line;
        }
      }
      return line
        .replace(/\b[0-9a-f]{16}\b/g, '<LEASE>')
        .replace(/"(cluster_id|member_id)":\d+/g, '"$1":<ID>')
        .replace(/"raft_term":\d+/g, '"raft_term":<TERM>');
    })
    .join('\n');
}
