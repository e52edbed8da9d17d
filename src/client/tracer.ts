import type { Process } from '../clock/process.js';
import type { EventOf, FieldsArg, Trace, TraceKind } from '../trace/trace.js';

/**
 * Emits one client's trace events (member = the client's name, time = its process clock). Callers test
 * `on` before building the fields object, so a disabled trace costs one property read.
 */
export class ClientTracer {
  readonly on: boolean;

  constructor(
    private readonly trace: Trace,
    readonly member: string,
    private readonly process: Process,
  ) {
    this.on = trace.enabled;
  }

  /** `fields` may be left out only for a kind whose fields are all optional. */
  emit<K extends TraceKind>(kind: K, lease?: bigint, ...[fields]: FieldsArg<K>): void {
    if (!this.on) return;
    // For a generic K the compiler cannot resolve whether fields are required; FieldsArg checked the caller.
    this.trace.emit({
      t: this.process.now(),
      member: this.member,
      kind,
      ...(lease !== undefined ? { lease } : {}),
      ...(fields !== undefined ? { fields } : {}),
    } as EventOf<K>);
  }
}
