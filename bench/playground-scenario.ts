/** The playground benchmark's scenario: 3 members, 1,000 leases kept alive by 10 clients, 10 virtual minutes. */
export const PLAYGROUND_LEASES = 1_000;
export const PLAYGROUND_MINUTES = 10;

export function playgroundBenchYaml(leases = PLAYGROUND_LEASES, minutes = PLAYGROUND_MINUTES): string {
  const lines = [
    'name: playground-bench-1000-leases',
    'description: 3 members, 1,000 leases with TTL 10 s kept alive by 10 clients.',
    `duration: ${minutes}m`,
    'steps:',
    `  - { at: 0s, grant-many: { prefix: K, count: ${leases}, ttl: 10 } }`,
  ];
  for (let i = 1; i <= leases; i++) lines.push(`  - { at: 1s, keepalive: { lease: K${i}, client: c${1 + (i % 10)} } }`);
  return `${lines.join('\n')}\n`;
}
