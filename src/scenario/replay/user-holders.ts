/** Holders written in TypeScript (`strategy: user:<name>`): which ones a replay needs and was given. */
import { isHolderStrategy, type SettleGate, type UserHolderFn } from '../../holder/index.js';
import type { Scenario } from '../types.js';
import type { RunOptions } from './run-result.js';

/** A scenario's `user:<name>` holder that the replay was not given (or that a synchronous replay cannot run). */
export class MissingUserHolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingUserHolderError';
  }
}

export function throwMissingUserHolder(scenario: Scenario, opts: RunOptions, gate: SettleGate | undefined): void {
  const missing = missingUserHolder(scenario, opts.userHolders, gate !== undefined);
  if (missing !== undefined) throw new MissingUserHolderError(missing);
}

/** A `user:<name>` holder the replay is not given, or that a synchronous replay (`async` false) cannot run. */
export function missingUserHolder(
  scenario: Scenario,
  userHolders: RunOptions['userHolders'],
  async: boolean,
): string | undefined {
  for (const s of scenario.steps) {
    if (s.kind !== 'holder' || isHolderStrategy(s.strategy)) continue;
    const name = s.strategy.slice('user:'.length);
    if (userHolders?.[name] === undefined)
      return (
        `${scenario.file}:${s.pos.line}:${s.pos.col}: holder ${s.name} uses ` +
        `strategy ${s.strategy}, but no holder named ${name} was given to the replay`
      );
    if (!async)
      return (
        `${scenario.file}:${s.pos.line}:${s.pos.col}: holder ${s.name} is ` +
        `written in TypeScript (${s.strategy}); replay it with runScenarioAsync`
      );
  }
  return undefined;
}

/** The user-written holders a replay may start, and where their failures go. */
export interface UserHolders {
  readonly fns: Readonly<Record<string, UserHolderFn>>;
  readonly gate: SettleGate | undefined;
  readonly failed: (message: string) => void;
}
