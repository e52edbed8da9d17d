/**
 * `check --reporter junit`: one test case per property checked; a violated one lists its runs and how to
 * replay each.
 */
import { PROPERTY_NAMES } from '../../properties/monitors/property-names.js';
import { junitXml, type JUnitCase } from '../junit.js';
import { shellQuote } from '../../report/terminal-text.js';
import type { CampaignResult, SummaryContext } from './summary.js';

export function checkJunit(
  properties: readonly string[] | undefined,
  r: CampaignResult,
  c: SummaryContext,
  seconds: number,
  when: Date,
): string {
  const cases: JUnitCase[] = (properties ?? PROPERTY_NAMES).map((p) => {
    const bad = r.notable.filter((x) => x.violation?.property === p);
    if (bad.length === 0) return { name: p, classname: 'lessor-sim.check', seconds: 0 };
    const lines = bad.map((x) => {
      const v = x.violation!;
      const file = c.files.get(x.index);
      const replay =
        file !== undefined ? `npx lessor-sim run ${shellQuote(file)}` : `npx ${c.reproduce} --property ${p} --out DIR`;
      return (
        `run ${x.index} (run seed ${x.runSeed}) at ${(v.atUs / 1e6).toFixed(6)}` +
        ` s, trace line ${v.traceLine}: ${v.message}\nreplay: ${replay}`
      );
    });
    return {
      name: p,
      classname: 'lessor-sim.check',
      seconds: 0,
      failure: {
        message: `${bad.length} of ${r.total} runs violated ${p}: ${bad[0]!.violation!.message}`,
        type: 'property',
        text: lines.join('\n'),
      },
    };
  });
  return junitXml(
    [
      {
        name: 'lessor-sim check',
        package: 'lessor-sim.check',
        seconds,
        properties: [
          ['reproduce', c.reproduce],
          ['runs', String(r.total)],
          ...(r.interrupted === undefined ? [] : [['partial', `interrupted by ${r.interrupted}`] as [string, string]]),
        ],
        cases,
      },
    ],
    when,
  );
}
