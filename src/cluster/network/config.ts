import { MICROS_PER_MS, type Micros } from '../../clock/time.js';

/** How the simulated network behaves on every link that has no override. */
export interface NetworkConfig {
  /** One-way delay of every link, µs (the scenario format's `latency`, 1 ms by default). */
  readonly latencyUs: Micros;
  /** Extra one-way delay drawn uniformly from [0, jitterUs] per message. */
  readonly jitterUs: Micros;
  /** Probability that a peer message is dropped. Client traffic is never dropped. */
  readonly lossProbability: number;
}

export const defaultNetworkConfig: NetworkConfig = {
  latencyUs: MICROS_PER_MS,
  jitterUs: 0,
  lossProbability: 0,
};

export function resolveNetworkConfig(c: Partial<NetworkConfig>): NetworkConfig {
  const r = { ...defaultNetworkConfig, ...c };
  checkDelay('latencyUs', r.latencyUs);
  checkDelay('jitterUs', r.jitterUs);
  if (!(r.lossProbability >= 0 && r.lossProbability <= 1)) {
    throw new RangeError(`network: lossProbability must be in [0, 1], got ${r.lossProbability}`);
  }
  return r;
}

export function checkDelay(name: string, us: Micros): void {
  if (!Number.isInteger(us) || us < 0)
    throw new RangeError(`network: ${name} must be a non-negative integer of µs, got ${us}`);
}
