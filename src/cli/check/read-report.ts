/**
 * Reads a check report back (`check merge`): a file that is not one, or is damaged, is refused in one line
 * naming the file and the first field that is wrong, never a crash.
 */
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { readBounded } from '../read-bounded.js';
import { isBugName } from '../../switches/bugs.js';
import { FIXES, isFixName } from '../../switches/fixes.js';
import { isPropertyName } from '../../properties/monitors/property-names.js';
import { MAX_CAMPAIGN_SEED, MAX_RUNS, MAX_SHARDS } from '../int-flag.js';
import { reportDigest, REPORT_FORMAT, REPORT_FORMAT_VERSION, type CheckReport } from './check-report.js';

type Json = unknown;

class Bad extends Error {}

const isObj = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: Json): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isNames =
  (known: (s: string) => boolean) =>
  (v: Json): boolean =>
    Array.isArray(v) && v.every((s) => typeof s === 'string' && known(s));
const upTo =
  (max: number) =>
  (v: Json): boolean =>
    isInt(v) && v <= max;
const FINDINGS: ReadonlySet<string> = new Set(Object.values(FIXES).map((f) => f.finding));
/** A counterexample's file, relative to its report: a plain path inside the report's folder. */
const isRelativeFile = (v: Json): boolean =>
  typeof v === 'string' &&
  v !== '' &&
  !v.startsWith('/') &&
  !/^[A-Za-z]:/.test(v) &&
  !/[\u0000-\u001f\\]/.test(v) &&
  v.split('/').every((part) => part !== '' && part !== '.' && part !== '..');

function need(ok: boolean, what: string): void {
  if (!ok) throw new Bad(what);
}

function field(o: Record<string, Json>, name: string, ok: (v: Json) => boolean, expected: string): void {
  need(ok(o[name]), `${name} should be ${expected}`);
}

const orNull =
  (ok: (v: Json) => boolean) =>
  (v: Json): boolean =>
    v === null || ok(v);

function checkCampaign(c: Json): void {
  need(isObj(c), 'campaign should be an object');
  const o = c as Record<string, Json>;
  field(o, 'version', (v) => typeof v === 'string', 'a string');
  field(o, 'seed', upTo(MAX_CAMPAIGN_SEED), `an integer up to ${MAX_CAMPAIGN_SEED}`);
  field(o, 'runs', orNull(upTo(MAX_RUNS)), `an integer up to ${MAX_RUNS} or null`);
  for (const f of ['timeBudgetUs', 'maxEvents', 'timeoutMs']) field(o, f, orNull(isInt), 'an integer or null');
  field(o, 'properties', orNull(isNames(isPropertyName)), 'a list of property names or null');
  field(o, 'bugs', isNames(isBugName), 'a list of bug names');
  field(o, 'fixes', isNames(isFixName), 'a list of fix names');
  field(o, 'shrink', (v) => typeof v === 'boolean', 'true or false');
}

function checkRun(r: Json, i: number): void {
  need(isObj(r), `runs[${i}] should be an object`);
  const o = r as Record<string, Json>;
  for (const f of ['index', 'runSeed', 'steps', 'virtualUs']) field(o, f, isInt, `an integer (runs[${i}])`);
  need(o.violation !== undefined || o.stopped !== undefined, `runs[${i}] should have a violation or be stopped`);
  const v = o.violation;
  if (v !== undefined) {
    need(isObj(v), `runs[${i}].violation should be an object`);
    const w = v as Record<string, Json>;
    need(typeof w.property === 'string' && typeof w.message === 'string', `runs[${i}].violation is incomplete`);
    need(isPropertyName(w.property as string), `runs[${i}].violation.property is not a property of this lessor-sim`);
    need(isInt(w.atUs) && isInt(w.traceLine), `runs[${i}].violation is incomplete`);
  }
  const c = o.classification;
  if (c !== undefined) {
    need(
      isObj(c) && isNames(isFixName)((c as Record<string, Json>).fixes),
      `runs[${i}].classification should list fixes`,
    );
    const fixes = (c as Record<string, Json>).fixes as (keyof typeof FIXES)[];
    const f = (c as Record<string, Json>).finding;
    // The class is the first fix's, as classifyViolation names it: a made-up class cannot pass --allow-known.
    need(
      f === (fixes[0] === undefined ? undefined : FIXES[fixes[0]].finding) &&
        (f === undefined || FINDINGS.has(f as string)),
      `runs[${i}].classification.finding is not the class of its first fix`,
    );
  }
  const s = o.stopped;
  if (s !== undefined) {
    need(isObj(s), `runs[${i}].stopped should be an object`);
    const t = s as Record<string, Json>;
    need(typeof t.reason === 'string' && typeof t.message === 'string', `runs[${i}].stopped is incomplete`);
    need(isInt(t.atUs) && isInt(t.events), `runs[${i}].stopped is incomplete`);
  }
  const x = o.counterexample;
  if (x !== undefined) {
    need(isObj(x), `runs[${i}].counterexample should be an object`);
    const t = x as Record<string, Json>;
    need(typeof t.file === 'string' && typeof t.yaml === 'string', `runs[${i}].counterexample is incomplete`);
    need(isRelativeFile(t.file), `runs[${i}].counterexample.file should be a path inside the report's folder`);
  }
}

/** The report in `text`, or why it is not one. */
function parseReport(text: string): CheckReport {
  let doc: Json;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Bad('not JSON');
  }
  need(isObj(doc) && doc.format === REPORT_FORMAT, `not a ${REPORT_FORMAT} (no "format": "${REPORT_FORMAT}")`);
  const o = doc as Record<string, Json>;
  need(
    o.formatVersion === REPORT_FORMAT_VERSION,
    `formatVersion ${JSON.stringify(o.formatVersion)}; this lessor-sim reads ${REPORT_FORMAT_VERSION}`,
  );
  checkCampaign(o.campaign);
  const s = o.shard as Record<string, Json>;
  need(
    isObj(s) &&
      isInt(s.index) &&
      upTo(MAX_SHARDS)(s.count) &&
      (s.count as number) >= 1 &&
      s.index < (s.count as number),
    `shard should be {index, count} with index < count <= ${MAX_SHARDS}`,
  );
  need(Array.isArray(o.ran), 'ran should be a list of [first, last] ranges');
  let prev = -1;
  for (const r of o.ran as Json[]) {
    need(Array.isArray(r) && r.length === 2 && isInt(r[0]) && isInt(r[1]), 'ran should hold [first, last] pairs');
    const [a, b] = r as [number, number];
    need(a > prev && b >= a, 'ran should hold ranges in order, without overlap');
    prev = b;
  }
  need(Array.isArray(o.runs), 'runs should be a list');
  (o.runs as Json[]).forEach(checkRun);
  let last = -1;
  for (const r of o.runs as { index: number }[]) {
    need(r.index > last, `runs should list each run once, by index (run ${r.index} after ${last})`);
    last = r.index;
  }
  need(o.interrupted === undefined || typeof o.interrupted === 'string', 'interrupted should be a signal name');
  field(o, 'workers', isInt, 'an integer');
  field(o, 'seconds', (v) => typeof v === 'number' && v >= 0, 'a number of seconds');
  const report = doc as unknown as CheckReport;
  need(
    o.digest === reportDigest(report),
    'digest does not match its runs: the report was edited or damaged since check wrote it',
  );
  return report;
}

/** A report lists failing runs with their counterexamples: far below this, even for a large campaign. */
export const MAX_REPORT_BYTES = 128 * 1024 * 1024;

/** Reads and parses `file`; a problem is one line with exit code 2. */
export function readReport(file: string): CheckReport {
  const read = readBounded(file, MAX_REPORT_BYTES, 'a check report (128 MiB)');
  if (!read.ok) throw new CliError(`${file}: ${read.message}`, EXIT.usage);
  try {
    return parseReport(read.text);
  } catch (e) {
    if (e instanceof Bad) throw new CliError(`${file}: ${e.message}`, EXIT.usage);
    throw e;
  }
}

/** Whether `text` claims to be a check report, so a folder's other JSON files are passed over. */
export function looksLikeReport(text: string): boolean {
  return text.includes(`"format": "${REPORT_FORMAT}"`) || text.includes(`"format":"${REPORT_FORMAT}"`);
}
