import type { Process } from '../../clock/process.js';
import { Link } from './link.js';

/** A named party on the network (member `n1`, client `c1`) and the process that handles what it receives. */
export class Endpoint {
  /** Partition group; peer traffic flows only between endpoints of the same group. */
  group = 0;
  /** Outgoing links by the receiver's index, created on first use. */
  private readonly links: (Link | undefined)[] = [];

  constructor(
    readonly name: string,
    readonly index: number,
    readonly process: Process,
  ) {}

  linkTo(to: Endpoint, defaultLatencyUs: number): Link {
    let l = this.links[to.index];
    if (l === undefined) {
      l = new Link(defaultLatencyUs);
      this.links[to.index] = l;
    }
    return l;
  }
}
