/** Every property monitor, by name, in catalogue order. */
import { boundedDrift } from './bounded-drift.js';
import { boundedExtension } from './bounded-extension.js';
import { checkpointScheduling } from './checkpoint-scheduling.js';
import { eventualRevocation } from './eventual-revocation.js';
import { fencedLocks } from './fenced-locks.js';
import { grantBounds } from './grant-bounds.js';
import { holderStopsBeforeRevoke } from './holder-stops-before-revoke.js';
import { keyLeaseAtomicity } from './key-lease-atomicity.js';
import { memberAgreement } from './member-agreement.js';
import type { Monitor } from './monitor.js';
import { noEarlyExpiry } from './no-early-expiry.js';
import { noOverlap } from './no-overlap.js';
import { noRenewAfterRevoke } from './no-renew-after-revoke.js';
import { noResurrection } from './no-resurrection.js';
import { noStaleWriteAccepted } from './no-stale-write-accepted.js';
import { promotionOrdering } from './promotion-ordering.js';
import type { PropertyName } from './property-names.js';
import { rateLimits } from './rate-limits.js';
import { readYourGrant } from './read-your-grant.js';
import { renewingClientKeepsLease } from './renewing-client-keeps-lease.js';
import { resourceInvariants } from './resource-invariants.js';
import { singleActingPrimary } from './single-acting-primary.js';
import { timeToLiveSanity } from './timetolive-sanity.js';
import { wallClockIndependence } from './wall-clock-independence.js';

export const MONITORS: { readonly [P in PropertyName]: Monitor } = {
  'no-early-expiry': noEarlyExpiry,
  'no-renew-after-revoke': noRenewAfterRevoke,
  'key-lease-atomicity': keyLeaseAtomicity,
  'no-resurrection': noResurrection,
  'single-acting-primary': singleActingPrimary,
  'promotion-ordering': promotionOrdering,
  'read-your-grant': readYourGrant,
  'member-agreement': memberAgreement,
  'timetolive-sanity': timeToLiveSanity,
  'bounded-extension': boundedExtension,
  'checkpoint-scheduling': checkpointScheduling,
  'resource-invariants': resourceInvariants,
  'grant-bounds': grantBounds,
  'wall-clock-independence': wallClockIndependence,
  'fenced-locks': fencedLocks,
  'eventual-revocation': eventualRevocation,
  'bounded-drift': boundedDrift,
  'renewing-client-keeps-lease': renewingClientKeepsLease,
  'rate-limits': rateLimits,
  'holder-stops-before-revoke': holderStopsBeforeRevoke,
  'no-overlap': noOverlap,
  'no-stale-write-accepted': noStaleWriteAccepted,
};
