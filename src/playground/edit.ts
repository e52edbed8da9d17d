/**
 * The learner's run is a scenario file, edited in place: clicked actions become steps at their virtual
 * times and settings become the file's fields. The text is what exports, what the URL carries and what
 * `lessor-sim run` replays, so the page and the CLI can only ever disagree about nothing.
 */
import { isMap, isSeq, parseDocument, type Document, type YAMLMap, type YAMLSeq } from 'yaml';
import type { Micros } from '../clock/time.js';
import type { Scenario } from '../scenario/types.js';
import { grantManyLabel } from '../scenario/lease-labels.js';

/** A field of the scenario the settings panel changes; a path into the YAML document. */
export type SettingPath =
  | readonly ['profile']
  | readonly ['seed']
  | readonly ['bugs']
  | readonly ['duration']
  | readonly ['cluster', string];

const WRITE = { lineWidth: 0 } as const;

function open(text: string): Document {
  return parseDocument(text, { keepSourceTokens: false });
}

/**
 * Inserts `step` after every step at or before `atUs` (so it runs last at its instant, like a step
 * written at the end of that instant's group), keeping the file in time order.
 */
export function insertStep(text: string, scenario: Scenario, atUs: Micros, step: Record<string, unknown>): string {
  const doc = open(text);
  const steps = doc.get('steps', true);
  if (!isSeq(steps) || steps.items.length !== scenario.steps.length)
    throw new Error('the scenario’s steps are not one plain YAML list');
  const index = scenario.steps.filter((s) => s.atUs <= atUs).length;
  const node = doc.createNode(step) as YAMLMap;
  for (const pair of node.items)
    if (isMap(pair.value) || isSeq(pair.value)) (pair.value as YAMLMap | YAMLSeq).flow = true;
  node.flow = true;
  steps.items.splice(index, 0, node);
  return doc.toString(WRITE);
}

export function setSetting(text: string, path: SettingPath, value: unknown): string {
  const doc = open(text);
  if (path[0] === 'cluster' && !isMap(doc.get('cluster', true))) doc.set('cluster', doc.createNode({}));
  const node = doc.createNode(value);
  if (isSeq(node)) node.flow = true;
  doc.setIn([...path], node);
  return doc.toString(WRITE);
}

/** Lease labels are the scenario's names for leases; the learner's new ones must not collide. */
export function freshLabel(scenario: Scenario, prefix = 'P'): string {
  const used = new Set<string>();
  for (const s of scenario.steps) {
    if (s.kind === 'grant') used.add(s.lease);
    if (s.kind === 'grant-many') for (let i = 1; i <= s.count; i++) used.add(grantManyLabel(s.prefix, i));
  }
  for (let i = 1; ; i++) if (!used.has(`${prefix}${i}`)) return `${prefix}${i}`;
}
