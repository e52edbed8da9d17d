// The simulated network: latency, jitter, loss and partitions between named endpoints.
export { Network, Packet, type TrafficKind } from './network.js';
export { defaultNetworkConfig, type NetworkConfig } from './config.js';
