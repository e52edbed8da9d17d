/**
 * The environment a program under test starts with: where the cluster is, in the variables etcdctl
 * and most clients read, one variable per member, and where the fenced resource and the belief board are.
 */

export interface AppEndpoints {
  /** Members in order, each with its client URL (`http://127.0.0.1:PORT`). */
  readonly members: readonly { readonly name: string; readonly url: string }[];
  /** The fenced resource this program writes to (`…/resources/NAME`). */
  readonly resourceUrl?: string;
  /** The belief board (`…/beliefs`); the program appends `/HOLDER_NAME`. */
  readonly beliefsUrl?: string;
}

/** `ETCD_ENDPOINT_N1`, from a member name; anything but letters and digits becomes `_`. */
export const memberVariable = (member: string): string =>
  `ETCD_ENDPOINT_${member.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

export function appEnv(name: string, at: AppEndpoints): Record<string, string> {
  const all = at.members.map((m) => m.url).join(',');
  const env: Record<string, string> = { ETCDCTL_ENDPOINTS: all, ETCD_ENDPOINTS: all, HOLDER_NAME: name };
  for (const m of at.members) env[memberVariable(m.name)] = m.url;
  if (at.resourceUrl !== undefined) env.RESOURCE_URL = at.resourceUrl;
  if (at.beliefsUrl !== undefined) env.BELIEFS_URL = at.beliefsUrl;
  return env;
}
