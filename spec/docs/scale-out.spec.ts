// docs/scale-out/ is right: the Kubernetes manifests are valid against the Kubernetes API schema
// (kubernetes-models), the GitHub Actions workflow against the workflow schema (@actions/workflow-parser), and
// every lessor-sim command line in them, for every index the Job or the matrix gives it, is one our CLI takes:
// the shards' command lines together cover the campaign's runs exactly once, their reports land where the merge
// reads them, and the merge's command line is accepted too.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { build } from 'esbuild';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { parseCommandArgs } from '../../src/cli/argv.js';
import { checkOptions, shardIndices, type CheckCommandOptions } from '../../src/cli/check/check-options.js';
import { CORES_PER_WORKER, MIN_RUNS_PER_WORKER } from '../../src/cli/check/worker-count.js';
import { resolveCommand, str, type Invocation } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands/index.js';

const ROOT = resolve(__dirname, '../..');
const read = (f: string): string => readFileSync(join(ROOT, 'docs/scale-out', f), 'utf8');

// @actions/workflow-parser imports its JSON schemas without an import attribute, which only a bundler
// resolves: it is bundled once here (in the checkout, .scratch* being ignored by git) and loaded from there.
type WorkflowParser = typeof import('@actions/workflow-parser');
let parser: WorkflowParser;
const scratch = mkdtempSync(join(ROOT, '.scratch-workflow-parser-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
beforeAll(async () => {
  const outfile = join(scratch, 'workflow-parser.mjs');
  await build({
    stdin: { contents: "export * from '@actions/workflow-parser';", resolveDir: ROOT },
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    banner: { js: "import { createRequire as __r } from 'node:module';\nconst require = __r(import.meta.url);" },
    logLevel: 'warning',
  });
  parser = (await import(outfile)) as WorkflowParser;
});

/** The workflow schema's complaints about `content`. */
async function workflowErrors(content: string): Promise<string[]> {
  const parsed = parser.parseWorkflow({ name: 'github-actions.yml', content }, new parser.NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (parsed.value === undefined) return errors;
  const template = await parser.convertWorkflowTemplate(parsed.context, parsed.value);
  return [...new Set([...errors, ...(template.errors ?? []).map((e) => e.Message)])];
}

/** A lessor-sim command line through the real parser: the command it names and its flags and positionals. */
function accepted(argv: readonly string[]): { name: string; inv: Pick<Invocation, 'flags' | 'positionals'> } {
  expect(argv[0]).toBe('lessor-sim');
  const named = resolveCommand(COMMANDS, argv.slice(1));
  expect(named, argv.join(' ')).toBeDefined();
  return { name: named!.cmd.name, inv: parseCommandArgs(named!.cmd, named!.rest) };
}

/** A shard's command line: accepted, its options, and where it writes. */
function shardRun(argv: readonly string[]): { o: CheckCommandOptions; report: string; out: string } {
  const { name, inv } = accepted(argv);
  expect(name).toBe('check');
  const o = checkOptions(inv, () => 0);
  expect(str(inv, 'reporter')).toBe('json');
  expect(o.exitZero).toBe(true);
  return { o, report: str(inv, 'output')!, out: o.out! };
}

/** The shards' runs together are the campaign's, each once. */
function coverExactly(shards: readonly CheckCommandOptions[]): void {
  const runs = shards[0]!.runs!;
  const seen = shards.flatMap((o) => [...shardIndices(o)]).sort((a, b) => a - b);
  expect(seen.length).toBe(runs);
  expect(seen.every((k, i) => k === i)).toBe(true);
}

describe('the Kubernetes manifests', () => {
  const docs = parseAllDocuments(read('campaign-job.yaml')).map((d) => d.toJS() as Record<string, unknown>);
  const claim = new PersistentVolumeClaim(docs.find((d) => d.kind === 'PersistentVolumeClaim') as never);
  const job = new Job(docs.find((d) => d.kind === 'Job') as never);
  const merge = new Job(parseYaml(read('merge-job.yaml')) as never);

  it('are a PersistentVolumeClaim and two batch/v1 Jobs the Kubernetes API schema accepts', () => {
    expect(docs.map((d) => `${d.apiVersion} ${d.kind}`)).toEqual(['v1 PersistentVolumeClaim', 'batch/v1 Job']);
    for (const o of [claim, job, merge]) expect(() => o.validate()).not.toThrow();
    // The schema is strict enough to matter.
    const broken = new Job({ ...(job.toJSON() as object), spec: { ...job.spec!, completions: 'eight' as never } });
    expect(() => broken.validate()).toThrow(/completions must be integer/);
    expect(merge.apiVersion).toBe('batch/v1');
    expect(claim.spec!.accessModes).toContain('ReadWriteMany');
  });

  it('run one shard per completion index, covering the campaign once, reports on the shared volume', () => {
    const spec = job.spec!;
    expect(spec.completionMode).toBe('Indexed');
    expect(spec.parallelism).toBeLessThanOrEqual(spec.completions!);
    // A pod failure policy needs restartPolicy Never.
    expect(spec.template.spec!.restartPolicy).toBe('Never');
    const [c] = spec.template.spec!.containers;
    expect(c!.command!.slice(0, 2)).toEqual(['npx', 'lessor-sim']);
    expect(spec.podFailurePolicy!.rules[0]!.onExitCodes).toMatchObject({ containerName: c!.name, values: [2] });
    const mount = c!.volumeMounts!.find((m) => m.name === 'reports')!;
    const volume = spec.template.spec!.volumes!.find((v) => v.name === mount.name)!;
    expect(volume.persistentVolumeClaim!.claimName).toBe(claim.metadata!.name);
    const shards = Array.from({ length: spec.completions! }, (_, i) =>
      shardRun([...c!.command!.slice(1), ...c!.args!].map((a) => a.replaceAll('$(JOB_COMPLETION_INDEX)', String(i)))),
    );
    shards.forEach(({ o, report, out }, i) => {
      expect(o.shard).toEqual({ index: i, count: spec.completions });
      expect(posix.dirname(report)).toBe(mount.mountPath);
      expect(out.startsWith(`${mount.mountPath}/`)).toBe(true);
    });
    expect(new Set(shards.map((s) => s.report)).size).toBe(shards.length);
    coverExactly(shards.map((s) => s.o));
    // Two cores a worker, and each worker's share of the runs worth its warm-up.
    const { workers } = shards[0]!.o;
    expect(Number(c!.resources!.requests!.cpu)).toBe(CORES_PER_WORKER * workers);
    expect([...shardIndices(shards[0]!.o)].length / workers).toBeGreaterThanOrEqual(MIN_RUNS_PER_WORKER);
  });

  it('merge the reports from the same volume with a command line check merge accepts', () => {
    const [c] = merge.spec!.template.spec!.containers;
    const { name, inv } = accepted([...c!.command!.slice(1), ...c!.args!]);
    expect(name).toBe('check merge');
    const mount = c!.volumeMounts![0]!;
    expect(inv.positionals).toEqual([mount.mountPath]);
    expect(merge.spec!.template.spec!.volumes![0]!.persistentVolumeClaim!.claimName).toBe(claim.metadata!.name);
    expect(c!.image).toBe(job.spec!.template.spec!.containers[0]!.image);
  });
});

// The matrix value as the workflow writes it.
// biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
const MATRIX_SHARD = '${{ matrix.shard }}';

describe('the GitHub Actions workflow', () => {
  const text = read('github-actions.yml');
  const wf = parseYaml(text) as {
    jobs: Record<
      string,
      {
        needs?: string;
        strategy?: { matrix: { shard: number[] } };
        steps: { run?: string; uses?: string; with?: Record<string, unknown> }[];
      }
    >;
  };

  it('is a workflow the GitHub Actions schema accepts', async () => {
    expect(await workflowErrors(text)).toEqual([]);
    expect(await workflowErrors(text.replace('needs: shard', 'needs: shards'))).toEqual([
      expect.stringMatching(/Job 'merge' depends on unknown job 'shards'/),
    ]);
    expect((await workflowErrors(text.replace('runs-on:', 'runs-onn:'))).join('\n')).toMatch(/runs-onn/);
  });

  it('runs one shard per matrix entry, uploads each report, and merges them all after', () => {
    const { shard, merge } = wf.jobs as Record<string, (typeof wf.jobs)[string]>;
    const indices = shard!.strategy!.matrix.shard;
    const line = shard!.steps.find((s) => s.run?.startsWith('npx lessor-sim'))!.run!;
    const upload = shard!.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!.with!;
    const shards = indices.map((i) => {
      const sub = (s: string): string => s.replaceAll(MATRIX_SHARD, String(i));
      const run = shardRun(sub(line).split(/\s+/).slice(1));
      const paths = sub(String(upload.path)).trim().split('\n');
      expect(paths).toEqual([run.report, `${run.out}/`]);
      return { ...run, artifact: sub(String(upload.name)) };
    });
    for (const [i, { o }] of shards.entries()) expect(o.shard).toEqual({ index: i, count: indices.length });
    coverExactly(shards.map((s) => s.o));
    expect(merge!.needs).toBe('shard');
    const download = merge!.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!.with!;
    const pattern = new RegExp(`^${String(download.pattern).replace('*', '.*')}$`);
    expect(shards.every((s) => pattern.test(s.artifact))).toBe(true);
    expect(download['merge-multiple']).toBe(true);
    const mergeLine = merge!.steps.find((s) => s.run?.startsWith('npx lessor-sim'))!.run!;
    const { name, inv } = accepted(mergeLine.split(/\s+/).slice(1));
    expect(name).toBe('check merge');
    expect(inv.positionals).toEqual([download.path]);
  });
});

describe('the Slurm scripts', () => {
  // Run for real by spec/cli/slurm-shards.spec.ts where Slurm can start; checked here everywhere.
  /** The script's `exec npx lessor-sim ...` line, continuations joined, and its #SBATCH options. */
  const script = (f: string): { argv: string[]; sbatch: string[] } => {
    const text = read(f).replaceAll('\\\n', ' ');
    const line = text.split('\n').find((l) => l.startsWith('exec npx lessor-sim '))!;
    const sbatch = [...text.matchAll(/^#SBATCH (\S+)$/gm)].map((m) => m[1]!);
    return { argv: line.trim().split(/\s+/).slice(2), sbatch };
  };

  it('run shard SLURM_ARRAY_TASK_ID of the array, covering the campaign once, where the merge reads', () => {
    const shard = script('slurm-shard.sh');
    expect(shard.sbatch).toContain(`--cpus-per-task=${CORES_PER_WORKER}`);
    const count = 4;
    const shards = Array.from({ length: count }, (_, i) =>
      shardRun(
        shard.argv.flatMap((a) =>
          a === '"$@"'
            ? ['--seed', '42', '--runs', '20000']
            : [a.replaceAll('"', '').replaceAll('$SLURM_ARRAY_TASK_COUNT', String(count)).replaceAll('$i', String(i))],
        ),
      ),
    );
    shards.forEach(({ o, report, out }, i) => {
      expect(o.shard).toEqual({ index: i, count });
      expect(o.workers).toBe(1);
      expect(posix.dirname(report)).toBe('reports');
      expect(out).toBe(`reports/shard-${i}`);
    });
    coverExactly(shards.map((s) => s.o));
    const merge = accepted(script('slurm-merge.sh').argv);
    expect(merge.name).toBe('check merge');
    expect(merge.inv.positionals).toEqual(['reports']);
    // The merged report goes outside the folder the merge reads, or a second merge would read it as a shard.
    expect(posix.dirname(str(merge.inv, 'output')!)).not.toBe('reports');
    expect(read('slurm-submit.sh')).toMatch(/--dependency="afterok:\$array"/);
  });
});
