/**
 * JUnit XML, the report format GitHub, GitLab and Jenkins read, in the shape of the Apache Ant schema
 * (windyroad/JUnit-Schema's JUnit.xsd), which most readers accept: `testsuites` of `testsuite`, each
 * with its properties, `testcase`s, system-out and system-err.
 */
import { hostname } from 'node:os';

export interface JUnitCase {
  readonly name: string;
  readonly classname: string;
  readonly seconds: number;
  /** A failed assertion or violated property: the message, and the details (failure text, replay command). */
  readonly failure?: { readonly message: string; readonly type: string; readonly text: string };
  /** The case could not run as written (a scenario's setup error). */
  readonly error?: { readonly message: string; readonly type: string; readonly text: string };
}

export interface JUnitSuite {
  readonly name: string;
  readonly package: string;
  readonly seconds: number;
  readonly properties: readonly (readonly [string, string])[];
  readonly cases: readonly JUnitCase[];
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
/** Escaped, with the control characters XML 1.0 cannot hold dropped. */
const esc = (s: string): string =>
  s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
const secs = (s: number): string => s.toFixed(3);

/** The document; `when` is the run's start (the schema wants local time without a zone). */
export function junitXml(suites: readonly JUnitSuite[], when: Date): string {
  const timestamp = when.toISOString().slice(0, 19);
  const host = esc(hostname() || 'localhost');
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>'];
  suites.forEach((s, id) => {
    const failures = s.cases.filter((c) => c.failure !== undefined).length;
    const errors = s.cases.filter((c) => c.error !== undefined).length;
    out.push(
      `  <testsuite name="${esc(s.name)}" package="${esc(s.package)}" id="${id}" timestamp="${timestamp}" hostname="` +
        `${host}" tests="${s.cases.length}" failures="${failures}" errors="${errors}" time="${secs(s.seconds)}">`,
      '    <properties>',
      ...s.properties.map(([k, v]) => `      <property name="${esc(k)}" value="${esc(v)}"/>`),
      '    </properties>',
    );
    for (const c of s.cases) {
      const open = `    <testcase name="${esc(c.name)}" classname="${esc(c.classname)}" time="${secs(c.seconds)}"`;
      const problem =
        c.failure !== undefined
          ? (['failure', c.failure] as const)
          : c.error !== undefined
            ? (['error', c.error] as const)
            : undefined;
      if (problem === undefined) out.push(`${open}/>`);
      else {
        const [tag, p] = problem;
        out.push(
          `${open}>`,
          `      <${tag} message="${esc(p.message)}" type="${esc(p.type)}">${esc(p.text)}</${tag}>`,
          '    </testcase>',
        );
      }
    }
    out.push('    <system-out/>', '    <system-err/>', '  </testsuite>');
  });
  out.push('</testsuites>', '');
  return out.join('\n');
}
