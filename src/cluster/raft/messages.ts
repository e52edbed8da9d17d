import { NO_ENTRIES, type Entry } from './entry.js';

/** The raftpb message types this model uses (local ones such as MsgHup and MsgBeat are method calls). */
export type MessageType =
  | 'MsgApp'
  | 'MsgAppResp'
  | 'MsgHeartbeat'
  | 'MsgHeartbeatResp'
  | 'MsgVote'
  | 'MsgVoteResp'
  | 'MsgPreVote'
  | 'MsgPreVoteResp'
  | 'MsgTimeoutNow';

/** The fields of a raftpb.Message a sender sets; the ones it leaves out keep their zero value. */
export interface MessageFields {
  readonly type: MessageType;
  readonly from: string;
  readonly to: string;
  readonly term: number;
  /** MsgApp: term of `index`. Votes: the candidate's last term. Rejections: term of `rejectHint`. */
  readonly logTerm?: number;
  /** MsgApp: index just before `entries`. MsgAppResp: last index matched. Votes: candidate's last index. */
  readonly index?: number;
  readonly entries?: readonly Entry[];
  readonly commit?: number;
  readonly reject?: boolean;
  readonly rejectHint?: number;
  /** MsgHeartbeat(Resp): read-index round (0 = none). MsgVote: CAMPAIGN_TRANSFER when forced. */
  readonly context?: number;
}

/**
 * raftpb.Message: one shape for every type, so the handlers stay monomorphic. Fields a type does not use
 * keep their zero value. Made with `Message.of({ type, from, to, term, reject: true })`, as Go writes
 * `pb.Message{Type: …, Reject: true}`.
 */
export class Message implements MessageFields {
  readonly type: MessageType;
  readonly from: string;
  readonly to: string;
  readonly term: number;
  readonly logTerm: number;
  readonly index: number;
  readonly entries: readonly Entry[];
  readonly commit: number;
  readonly reject: boolean;
  readonly rejectHint: number;
  readonly context: number;

  private constructor(f: MessageFields) {
    this.type = f.type;
    this.from = f.from;
    this.to = f.to;
    this.term = f.term;
    this.logTerm = f.logTerm ?? 0;
    this.index = f.index ?? 0;
    this.entries = f.entries ?? NO_ENTRIES;
    this.commit = f.commit ?? 0;
    this.reject = f.reject ?? false;
    this.rejectHint = f.rejectHint ?? 0;
    this.context = f.context ?? 0;
  }

  static of(f: MessageFields): Message {
    return new Message(f);
  }
}

/** Vote context of an election started by MsgTimeoutNow: voters ignore their leader lease. */
export const CAMPAIGN_TRANSFER = 1;

export function voteRespType(t: 'MsgVote' | 'MsgPreVote'): 'MsgVoteResp' | 'MsgPreVoteResp' {
  return t === 'MsgVote' ? 'MsgVoteResp' : 'MsgPreVoteResp';
}
