/**
 * What a step kind's simulation entry (scenario/kinds/) may use of the running replay: the cluster, the
 * scenario's clients and resources, and the etcdctl-like control client per member.
 */
import type { Cluster } from '../../cluster/cluster.js';
import type { ClientResponse, KeepAliveResponse, RpcError } from '../../cluster/server/api.js';
import type { ClientProfile, EtcdClient, FencedResource, KeepAliveChannel, Mutex } from '../../client/index.js';
import type { BugSet } from '../../switches/bugs.js';
import type { Trace, TraceFields, TraceKind } from '../../trace/trace.js';
import type { HolderStep } from '../types.js';
import type { AnswerValues, NamedChannel } from './answers.js';
import type { LabelBook } from './labels.js';
import type { SessionBook } from './sessions.js';

/** One client process of the scenario (c1, writer-2): an EtcdClient and what it holds. */
export interface ScenarioClient {
  readonly client: EtcdClient;
  readonly keepAlives: Map<bigint, KeepAliveChannel>;
  readonly locks: Map<string, Mutex>;
}

export interface StepReplay {
  readonly cluster: Cluster;
  readonly trace: Trace;
  /** The historical bug switches of this run. */
  readonly bugs: BugSet;
  readonly clientProfile: ClientProfile;
  /** Fenced resources by name, created by their first write. */
  readonly resources: Map<string, FencedResource>;
  /** The lease IDs behind the scenario's labels. */
  readonly labels: LabelBook;
  /** The scenario's named concurrency sessions. */
  readonly sessions: SessionBook;
  emit<K extends TraceKind>(member: string, kind: K, fields: TraceFields[K], lease?: bigint): void;
  /** A step that cannot act as written (a restart of a running member): noted in the trace. */
  stepError(op: string, message: string): void;
  /** LeaseGrant through etcdctl; the answer binds (or fails) the label. `id` 0 lets the server choose. */
  grant(label: string, ttl: number, id: bigint, via: string | undefined, as?: string, client?: string): void;
  /** Runs `fn` with the lease's ID, now or once its grant is answered. */
  withLease(label: string, op: string, fn: (id: bigint) => void): void;
  /** A callback that records etcdctl's answer to `op` in the trace, and under `as` when the step names it. */
  answer(
    op: string,
    lease?: bigint,
    key?: string,
    as?: string,
  ): (res: ClientResponse | KeepAliveResponse | RpcError) => void;
  /**
   * For a step with `as: NAME`: its request goes out now, and the returned function records the answer
   * (an error by name, or the values it carried) for `expect: { answer: NAME }`. A no-op without a name.
   */
  answerTo(as: string | undefined, op: string): (outcome: { error: string } | AnswerValues) => void;
  /** etcdctl pointed at one member: `via`, else the leader now, else n1. */
  ctl(via: string | undefined): EtcdClient;
  /** The scenario client, created on first use pinned to `via` (else n1). */
  client(name: string, via: string | undefined): ScenarioClient;
  /** Starts a holder on its client's process (the holder layer; a user holder from the run's options). */
  startHolder(s: HolderStep, sc: ScenarioClient): void;
  /** Registers a named KeepAlive call's channel; its first response becomes the answer under that name. */
  nameChannel(name: string, client: string, ch: KeepAliveChannel, unreadBuffer: number | undefined): void;
  /** Runs `fn` with a named KeepAlive call's channel, now or once the call is made. */
  channel(name: string, fn: (c: NamedChannel) => void): void;
  /** Runs `fn` on the client's own process: a paused client does it when resumed. */
  onClient(name: string, via: string | undefined, fn: (sc: ScenarioClient) => void): void;
}
