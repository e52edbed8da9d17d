import { Election, type Mutex, type Session } from '../../client/index.js';

interface Entry {
  readonly client: string;
  session?: Session;
  failed?: string;
  /** The session's mutexes by lock name, the latest of each name. */
  readonly mutexes: Map<string, Mutex>;
  /** The session's elections by name, and the leader values its observers were told. */
  readonly elections: Map<string, Election>;
  readonly observed: Map<string, string[]>;
  readonly waiting: Array<(s: Session) => void>;
}

/**
 * The scenario's named concurrency sessions. A session exists once its grant is answered; steps that
 * name it before then wait for it, as steps naming a lease wait for its grant.
 */
export class SessionBook {
  private readonly entries = new Map<string, Entry>();

  /** A `session` step started creating `name` on `client`. */
  open(name: string, client: string): void {
    this.entries.set(name, { client, mutexes: new Map(), elections: new Map(), observed: new Map(), waiting: [] });
  }

  /** The client the session belongs to (known from its step on, before it exists). */
  clientOf(name: string): string | undefined {
    return this.entries.get(name)?.client;
  }

  created(name: string, s: Session): void {
    const e = this.entries.get(name);
    if (e === undefined) return;
    e.session = s;
    for (const fn of e.waiting.splice(0)) fn(s);
  }

  /** NewSession failed: steps waiting on it never run; say why when asked. */
  fail(name: string, why: string): void {
    const e = this.entries.get(name);
    if (e === undefined) return;
    e.failed = why;
    e.waiting.length = 0;
  }

  /** Whether `s` is one of the named sessions (not one a lock step made for itself). */
  isNamed(s: Session): boolean {
    for (const e of this.entries.values()) if (e.session === s) return true;
    return false;
  }

  addMutex(session: string, m: Mutex): void {
    this.entries.get(session)?.mutexes.set(m.name, m);
  }

  mutex(session: string, lock: string): Mutex | undefined {
    return this.entries.get(session)?.mutexes.get(lock);
  }

  /** The session's Election of that name, made on first use. */
  election(session: Session, sessionName: string, election: string): Election {
    const e = this.entries.get(sessionName)!;
    let el = e.elections.get(election);
    if (el === undefined) {
      el = new Election(session, election);
      e.elections.set(election, el);
    }
    return el;
  }

  /** The leader values the session's observers of the election were told, in order (a list to append to). */
  observed(session: string, election: string): string[] | undefined {
    const e = this.entries.get(session);
    if (e === undefined) return undefined;
    let list = e.observed.get(election);
    if (list === undefined) {
      list = [];
      e.observed.set(election, list);
    }
    return list;
  }

  get(name: string): Session | undefined {
    return this.entries.get(name)?.session;
  }

  /** Why `name` has no session: its creation failed, it is still being created, or no step made it. */
  whyMissing(name: string): string {
    const e = this.entries.get(name);
    if (e === undefined) return `no session step has created session ${name} yet`;
    return e.failed ?? `session ${name} is still being created (its lease grant is in flight)`;
  }

  /** Runs `fn` with the session now, or once it exists; false if it never will. */
  whenCreated(name: string, fn: (s: Session) => void): boolean {
    const e = this.entries.get(name);
    if (e === undefined || e.failed !== undefined) return false;
    if (e.session !== undefined) fn(e.session);
    else e.waiting.push(fn);
    return true;
  }
}
