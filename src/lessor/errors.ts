/**
 * etcd's lease errors, as values compared by identity (`err === ErrLeaseNotFound`), never by message.
 * The messages are etcd's own so that output reads like etcd's logs.
 */
export class LeaseError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export const ErrNotPrimary = new LeaseError('ErrNotPrimary', 'not a primary lessor');
export const ErrLeaseNotFound = new LeaseError('ErrLeaseNotFound', 'lease not found');
export const ErrLeaseExists = new LeaseError('ErrLeaseExists', 'lease already exists');
export const ErrLeaseTTLTooLarge = new LeaseError('ErrLeaseTTLTooLarge', 'too large lease TTL');

/**
 * A wrong argument that etcd has no error for because Go's types rule it out (a fractional TTL, a
 * negative revoke rate). Thrown at the call, before any state changes.
 */
export class InvalidArgumentError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidArgumentError';
  }
}
