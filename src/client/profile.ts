/**
 * Client-library versions as data (concurrency package). Only the Mutex differs between the modelled
 * releases; the lease client is the same in 3.4.23 and 3.5.33 (docs/lessor.md §5.2).
 */
export interface ClientProfile {
  readonly name: 'v3.4' | 'v3.5';
  /**
   * Lock returns as soon as the keys created before its own are gone, without checking that its own
   * key (its session) still exists: 3.4 (etcd-io/etcd#11456, Jepsen etcd 3.4.3). 3.5 re-Gets its key
   * after waiting and returns ErrSessionExpired when it is gone (fix etcd-io/etcd#11408).
   */
  readonly lockSkipsPostWaitCheck: boolean;
  /** Mutex.TryLock exists (3.5). */
  readonly hasTryLock: boolean;
}

export const CLIENT_V3_4: ClientProfile = { name: 'v3.4', lockSkipsPostWaitCheck: true, hasTryLock: false };
export const CLIENT_V3_5: ClientProfile = { name: 'v3.5', lockSkipsPostWaitCheck: false, hasTryLock: true };

export const CLIENT_PROFILES: Readonly<Record<ClientProfile['name'], ClientProfile>> = {
  'v3.4': CLIENT_V3_4,
  'v3.5': CLIENT_V3_5,
};
