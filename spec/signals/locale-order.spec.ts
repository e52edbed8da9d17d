// Output order does not depend on the locale: labels, series and finding classes sort by code point, the
// byte order Prometheus (Go) uses. In da_DK "aa" sorts after "z" under localeCompare; here it never does.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../src/trace/code-point-order.js';
import { fcParams } from '../support/fc.js';
import { ROOT } from './support.js';

const script = `
import { formatLabels } from ${JSON.stringify(join(ROOT, 'src/signals/export/labels.ts'))};
console.log(new Intl.Collator().resolvedOptions().locale, formatLabels({ z: '1', aa: '2', B: '3', é: '4' }));
`;

describe('label order', () => {
  it('is the same under da_DK, lt_LT, et_EE and C', () => {
    const outs = ['C', 'da_DK.UTF-8', 'lt_LT.UTF-8', 'et_EE.UTF-8'].map((l) => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, LC_ALL: l, LANG: l },
      });
      expect(r.stderr).toBe('');
      return r.stdout.trim();
    });
    // The locales really were different (so localeCompare would have disagreed), and the labels were not.
    expect(new Set(outs.map((o) => o.split(' ')[0])).size).toBeGreaterThan(1);
    expect(new Set(outs.map((o) => o.split(' ')[1]))).toEqual(new Set(['{B="3",aa="2",z="1",é="4"}']));
  });

  it('compares by code point, as UTF-8 bytes do (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
      fcParams(500),
    );
  });
});
