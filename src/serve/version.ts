/** The etcd version Status reports for a profile: the release each profile models. */
export const etcdVersionOf = (profile: string): string => (profile === 'v3.4' ? '3.4.23' : '3.5.33');
