// A served record's program events are user input: parseRecord reads each one into a typed trace event once,
// refusing (with its line) a kind no program traces and a field that is missing, mistyped or not the kind's,
// so the replayed trace never holds an event whose readers would meet a field that is not there.
import { describe, expect, it } from 'vitest';
import { appEvent, appInput } from '../../src/serve/app-inputs.js';
import { parseRecord } from '../../src/serve/inputs.js';
import type { TraceEvent } from '../../src/trace/trace.js';

const HEADER = JSON.stringify({ served: 1, scenario: null, name: 'apps', seed: 1, profile: 'v3.5' });

const app = (t: number, event: Record<string, unknown>): string => JSON.stringify({ t, kind: 'app', event });

const record = (...lines: string[]): string => `${[HEADER, ...lines].join('\n')}\n`;

describe('a served record, its program events', () => {
  const events: TraceEvent[] = [
    { t: 1000, member: 'a', kind: 'app-start', fields: { command: "'/bin/sh' -c 'echo hi'" } },
    { t: 2000, member: 'a', kind: 'app-output', fields: { stream: 'stderr', text: 'oops' } },
    { t: 3000, member: 'a', kind: 'holder-acquired', lease: -5n, fields: { key: '/locks/a', token: 7 } },
    { t: 3500, member: 'a', kind: 'holder-deadline', lease: -5n, fields: { untilUs: 9_000_000 } },
    { t: 4000, member: 'a', kind: 'client-fenced-write', fields: { resource: 'db', token: 7, accepted: false } },
    { t: 5000, member: 'a', kind: 'holder-stop', lease: -5n, fields: { reason: 'lost', lateUs: 120 } },
    { t: 6000, member: 'a', kind: 'app-exit', fields: { signal: 'SIGKILL', by: 'harness' } },
  ];

  it('reads back every kind a program traces as the event that was recorded', () => {
    const r = parseRecord(record(...events.map((e) => JSON.stringify(appInput(e)))));
    if (typeof r === 'string') throw new Error(r);
    expect(r.inputs.map((i) => (i.kind === 'app' ? appEvent(i) : undefined))).toEqual(events);
  });

  it('refuses a kind no program traces, naming its line', () => {
    const r = parseRecord(
      record(
        app(1000, { member: 'a', kind: 'app-start', fields: { command: 'x' } }),
        app(2000, {
          member: 'a',
          kind: 'lease-grant',
          fields: { ttl: 5, expiry: 1 },
        }),
      ),
    );
    expect(r).toBe('line 3: a program\'s event of kind "lease-grant", which no program traces');
  });

  it('refuses a write without its verdict instead of counting it as rejected', () => {
    const r = parseRecord(
      record(app(1000, { member: 'a', kind: 'client-fenced-write', fields: { resource: 'db', token: 3 } })),
    );
    expect(r).toBe('line 2: client-fenced-write\'s field "accepted" is missing');
  });

  it('refuses a mistyped field and a field the kind does not have', () => {
    const mistyped = app(1000, { member: 'a', kind: 'holder-acquired', fields: { key: 42, token: 1 } });
    expect(parseRecord(record(mistyped))).toBe('line 2: holder-acquired\'s field "key" is not valid');
    const stream = app(1000, { member: 'a', kind: 'app-output', fields: { stream: 'stdin', text: 'x' } });
    expect(parseRecord(record(stream))).toBe('line 2: app-output\'s field "stream" is not valid');
    const extra = app(1000, { member: 'a', kind: 'app-exit', fields: { code: 0, by: 'itself', core: true } });
    expect(parseRecord(record(extra))).toBe('line 2: app-exit has no field "core"');
  });
});
