/**
 * The few YAML shapes a scenario step needs, written the way the scenario files in scenarios/ are: plain
 * scalars where YAML reads them back as the same string, flow maps and flow lists otherwise.
 */

/** Text that is already YAML (a duration such as `1.5s`), written as is. */
export class YamlRaw {
  constructor(readonly text: string) {}
}

/** A value a step field can hold. */
export type YamlValue =
  | string
  | number
  | bigint
  | boolean
  | YamlRaw
  | readonly YamlValue[]
  | { readonly [k: string]: YamlValue | undefined };

// Plain scalars YAML would read as something other than the same string.
const RESERVED = /^(true|false|yes|no|on|off|null|~|y|n)$/i;
const NUMBERISH = /^[-+]?(\d|\.\d)|^[-+]?\.(inf|nan)$/i;
const PLAIN = /^[A-Za-z0-9/_.][A-Za-z0-9/_.-]*$/;

export function yamlString(s: string): string {
  if (PLAIN.test(s) && !RESERVED.test(s) && !NUMBERISH.test(s)) return s;
  // A double-quoted YAML scalar accepts JSON's escapes.
  return JSON.stringify(s);
}

/** A duration (`1.5s`, `-30s`, `1m30s`): YAML reads these as strings, so they need no quotes. */
export function yamlDuration(s: string): YamlRaw {
  return new YamlRaw(/^-?(\d+(\.\d+)?(h|ms|m|s|us))+$/.test(s) ? s : yamlString(s));
}

export function yamlValue(v: YamlValue): string {
  if (v instanceof YamlRaw) return v.text;
  if (typeof v === 'string') return yamlString(v);
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(yamlValue).join(', ')}]`;
  return flowMap(Object.entries(v as Record<string, YamlValue | undefined>));
}

/** `{ a: 1, b: x }`, or `{}`; entries whose value is undefined are left out. */
export function flowMap(entries: readonly (readonly [string, YamlValue | undefined])[]): string {
  const parts = entries.filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${yamlValue(v!)}`);
  return parts.length === 0 ? '{}' : `{ ${parts.join(', ')} }`;
}
