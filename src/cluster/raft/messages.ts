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

/**
 * raftpb.Message: one shape for every type, so the handlers stay monomorphic. Fields a type does not use
 * keep their zero value.
 */
export class Message {
  constructor(
    readonly type: MessageType,
    readonly from: string,
    readonly to: string,
    readonly term: number,
    /** MsgApp: term of `index`. Votes: the candidate's last term. Rejections: term of `rejectHint`. */
    readonly logTerm = 0,
    /** MsgApp: index just before `entries`. MsgAppResp: last index matched. Votes: candidate's last index. */
    readonly index = 0,
    readonly entries: readonly Entry[] = NO_ENTRIES,
    readonly commit = 0,
    readonly reject = false,
    readonly rejectHint = 0,
    /** MsgHeartbeat(Resp): read-index round (0 = none). MsgVote: CAMPAIGN_TRANSFER when forced. */
    readonly context = 0,
  ) {}
}

/** Vote context of an election started by MsgTimeoutNow: voters ignore their leader lease. */
export const CAMPAIGN_TRANSFER = 1;

export function voteRespType(t: 'MsgVote' | 'MsgPreVote'): 'MsgVoteResp' | 'MsgPreVoteResp' {
  return t === 'MsgVote' ? 'MsgVoteResp' : 'MsgPreVoteResp';
}
