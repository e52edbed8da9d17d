/**
 * The Txn part of an answer's verdict: `succeeded` and the expected op answers against what the Txn
 * returned. Only the fields an expectation gives are checked; `kvs` must match in length and order.
 */
import type { IntRange, KvExpect, TxnOpExpect } from '../types.js';
import type { TxnOpAnswer } from './answers.js';

const inRange = (v: number, r: IntRange): boolean =>
  (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max);

/** Why the answers differ from the expectation (`at` names the op, "responses[1]"), or undefined. */
export function txnMismatch(
  want: readonly TxnOpExpect[],
  got: readonly TxnOpAnswer[],
  idOf: (label: string) => bigint | string,
  at = 'responses',
): string | undefined {
  if (want.length !== got.length) return `${at} has ${got.length} op answers, expected ${want.length}`;
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    const here = `${at}[${i}] (${g.op})`;
    if (w.revision !== undefined && !inRange(g.revision, w.revision)) return `${here} revision is ${g.revision}`;
    if (w.count !== undefined && g.count !== w.count) return `${here} count is ${g.count ?? 'absent'}`;
    if (w.more !== undefined && g.more !== w.more) return `${here} more is ${g.more ?? 'absent'}`;
    if (w.deleted !== undefined && g.deleted !== w.deleted) return `${here} deleted is ${g.deleted ?? 'absent'}`;
    if (w.succeeded !== undefined && g.succeeded !== w.succeeded)
      return `${here} succeeded is ${g.succeeded ?? 'absent'}`;
    if (w.kvs !== undefined) {
      const kvs = g.kvs ?? [];
      if (kvs.length !== w.kvs.length)
        return `${here} has keys [${kvs.map((k) => k.key).join(', ')}], expected ${w.kvs.length}`;
      for (let j = 0; j < kvs.length; j++) {
        const why = kvMismatch(w.kvs[j]!, kvs[j]!, idOf);
        if (why !== undefined) return `${here} kvs[${j}] ${why}`;
      }
    }
    if (w.responses !== undefined) {
      const why = txnMismatch(w.responses, g.responses ?? [], idOf, `${here}.responses`);
      if (why !== undefined) return why;
    }
  }
  return undefined;
}

function kvMismatch(
  w: KvExpect,
  g: { key: string; value: string; version: number; createRevision: number; modRevision: number; lease: bigint },
  idOf: (label: string) => bigint | string,
): string | undefined {
  if (g.key !== w.key) return `is ${JSON.stringify(g.key)}, expected ${JSON.stringify(w.key)}`;
  if (w.value !== undefined && g.value !== w.value) return `value is ${JSON.stringify(g.value)}`;
  if (w.version !== undefined && g.version !== w.version) return `version is ${g.version}`;
  if (w.create !== undefined && g.createRevision !== w.create) return `create revision is ${g.createRevision}`;
  if (w.mod !== undefined && g.modRevision !== w.mod) return `mod revision is ${g.modRevision}`;
  if (w.leaseId !== undefined && g.lease !== w.leaseId) return `lease is ${g.lease}`;
  if (w.lease !== undefined) {
    const id = idOf(w.lease);
    if (typeof id === 'string') return id;
    if (g.lease !== id) return `lease is ${g.lease}, not ${w.lease}'s`;
  }
  return undefined;
}
