// The simulated network: latency, jitter, loss and partitions between named endpoints.
export { closure, Network, Packet, type PacketHandler, type TrafficKind } from './network.js';
export { defaultNetworkConfig, type NetworkConfig } from './config.js';
