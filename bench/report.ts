export interface BenchResult {
  readonly name: string;
  readonly figures: Readonly<Record<string, string | number>>;
}

/** Prints one benchmark line and returns it for the summary. */
export function report(name: string, figures: Record<string, string | number>): BenchResult {
  const parts = Object.entries(figures).map(([k, v]) => `${k}: ${v}`);
  console.log(`${name.padEnd(24)} ${parts.join('  ')}`);
  return { name, figures };
}
