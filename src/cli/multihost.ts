/**
 * The multi-host commands of the command line (issue 18 part 4):
 *   `k8s`   write the Kubernetes manifests of a run split over K load generator pods (src/plan/k8s-manifests.ts)
 *   `shard` what each pod runs: one shard of every cell (src/pipeline/pod-shard.ts; the run itself is src/cli/commands/run.ts runCommand)
 *   `merge` K shard folders into one run folder (src/pipeline/merge-shards.ts)
 * Options are checked here, once, and every refusal names the option and the fix.
 */
import { join, resolve } from 'node:path';
import { VtbenchError, EXIT } from '../types/errors.ts';
import type { ResolvedOptions } from '../types/run.ts';
import type { Study } from '../types/study.ts';
import { defaultProfile, resolveOptions } from '../plan/profiles.ts';
import { formatPlan, makePlan } from '../plan/plan.ts';
import { getStudy, DEFAULT_STUDY } from '../studies/index.ts';
import { OPTION_SPECS } from '../plan/options.ts';
import { writeAll } from '../report/write.ts';
import { DEFAULT_PVC, DEFAULT_PVC_SIZE, SHARED_MOUNT, defaultJobName, isDnsLabel, isDnsSubdomain, isImageReference, k8sFiles, type K8sSpec } from '../plan/k8s-manifests.ts';
import { mergeShardRuns } from '../pipeline/merge-shards.ts';
import { RunStore } from '../adapters/store/run-store.ts';
import { newRunId, rawRunOptions, toolVersion, type Io } from './common.ts';

/** How long a shard waits for the others at a cell's start, s, when `--sync-timeout-s` is not given. */
export const DEFAULT_SYNC_TIMEOUT_S = 600;

/** `run.mjs shard`'s own settings. */
export interface ShardRunArgs {
  /** this shard, 0..K-1 */
  index: number;
  /** the shared folder: `<dir>/shard-<index>` and `<dir>/sync` */
  dir: string;
  syncTimeoutS: number;
}

/** `--sync-timeout-s`: whole seconds, 10..86400. @throws VtbenchError(EXIT.usage) */
function syncTimeout(v: unknown): number {
  if (v === undefined) return DEFAULT_SYNC_TIMEOUT_S;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isInteger(n) || n < 10 || n > 86_400) {
    throw new VtbenchError(`--sync-timeout-s: '${String(v)}' is not a whole number of seconds from 10 to 86400`, `give e.g. --sync-timeout-s ${DEFAULT_SYNC_TIMEOUT_S}`, EXIT.usage);
  }
  return n;
}

/**
 * The shard's index (`--index`, else `$JOB_COMPLETION_INDEX`), shared folder (`--out`) and timeout.
 * @throws VtbenchError(EXIT.usage) naming the option when one is missing or malformed
 */
export function shardOf(o: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv = process.env): ShardRunArgs {
  const given = typeof o['index'] === 'string' ? o['index'] : env['JOB_COMPLETION_INDEX'];
  if (given === undefined || given === '') {
    throw new VtbenchError('shard: no shard index: --index is not given and $JOB_COMPLETION_INDEX is not set', 'give --index <0..K-1> (a pod of a Kubernetes Indexed Job has JOB_COMPLETION_INDEX set)', EXIT.usage);
  }
  const index = Number(given);
  if (!/^\d+$/.test(given) || !Number.isSafeInteger(index)) throw new VtbenchError(`shard: the index '${given}' (--index or $JOB_COMPLETION_INDEX) is not a whole number >= 0`, 'give --index <0..K-1>', EXIT.usage);
  if (typeof o['out'] !== 'string' || o['out'].trim() === '') {
    throw new VtbenchError('shard: --out is required: the folder every shard shares', `give --out <folder> (the Job mounts its volume at ${SHARED_MOUNT} and passes --out ${SHARED_MOUNT}/<name>)`, EXIT.usage);
  }
  return { index, dir: resolve(process.cwd(), o['out']), syncTimeoutS: syncTimeout(o['syncTimeoutS']) };
}

/**
 * What a shard's run needs beyond a normal run: an external SUT and mock (every shard loads the same
 * ones) and an index below `--shards`.
 * @throws VtbenchError(EXIT.usage) naming the option and the fix
 */
export function checkShardRun(s: ShardRunArgs, o: Readonly<ResolvedOptions>): void {
  const k = o.shards ?? 1;
  if (o.sutUrl === undefined || o.mockUrl === undefined) {
    throw new VtbenchError(`shard: --sut-url and --mock-url are required: every shard loads the one SUT and reads the one mock someone else started`, 'give both (the same for every shard)', EXIT.usage);
  }
  if (s.index >= k) throw new VtbenchError(`shard: index ${s.index} is not below --shards ${k}`, `give --index 0..${k - 1}, or --shards the number of shards (the Job's completions)`, EXIT.usage);
}

/** A loopback host is the pod itself inside a pod. */
function isLoopback(url: string): boolean {
  const h = new URL(url).hostname;
  return h === 'localhost' || h === '::1' || h === '[::1]' || h.startsWith('127.');
}

/**
 * Resolve a k8s command's options into the manifests' spec: the study, profile and run options as
 * a normal run resolves them (resolveOptions, makePlan: the same plan the pods make), plus the
 * Kubernetes names.
 * @throws VtbenchError(EXIT.usage) naming the option and the fix
 */
export function k8sSpecOf(o: Record<string, string | boolean | undefined>, studies: readonly Study[]): { spec: K8sSpec; outDir: string; options: Readonly<ResolvedOptions> } {
  const study = typeof o['study'] === 'string' ? getStudy(o['study'], studies) : (studies.find((s) => s.id === DEFAULT_STUDY) ?? studies[0]!);
  const raw = rawRunOptions(o);
  const options = resolveOptions(study, typeof o['profile'] === 'string' ? o['profile'] : defaultProfile(study).name, raw);
  const plan = makePlan(options, study);
  const problems: string[] = [];
  if (options.sutUrl === undefined) problems.push('--sut-url is required: the pods load a SUT that runs already, at an address they reach (e.g. a Service: http://vtbench-sut.bench.svc:19080)');
  else if (isLoopback(options.sutUrl)) problems.push(`--sut-url ${options.sutUrl} is the pod itself inside a pod: give an address the pods reach (a Service name or a node address)`);
  if (options.mockUrl === undefined) problems.push('--mock-url is required: the pods read the mock the SUT calls (e.g. http://vtbench-mock.bench.svc:19000)');
  else if (isLoopback(options.mockUrl)) problems.push(`--mock-url ${options.mockUrl} is the pod itself inside a pod: give an address the pods reach`);
  if (options.variants.length !== 1) problems.push(`an external SUT runs one executor, but the run selects ${options.variants.length} variants (${options.variants.join(', ')}): give --variants <the one the SUT runs>`);
  const name = typeof o['name'] === 'string' ? o['name'] : defaultJobName(study.id, options.profile);
  if (!isDnsLabel(name, 50)) problems.push(`--name '${name}' is not a DNS-1123 label of at most 50 characters (a-z, 0-9, '-', alphanumeric at both ends): give e.g. --name ${defaultJobName(study.id, options.profile)}`);
  const namespace = typeof o['namespace'] === 'string' ? o['namespace'] : null;
  if (namespace !== null && !isDnsLabel(namespace)) problems.push(`--namespace '${namespace}' is not a DNS-1123 label`);
  const pvc = typeof o['pvc'] === 'string' ? o['pvc'] : DEFAULT_PVC;
  if (!isDnsLabel(pvc)) problems.push(`--pvc '${pvc}' is not a DNS-1123 label: give the claim's name, e.g. --pvc ${DEFAULT_PVC}`);
  const pvcSize = typeof o['pvcSize'] === 'string' ? o['pvcSize'] : DEFAULT_PVC_SIZE;
  if (!/^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/.test(pvcSize)) problems.push(`--pvc-size '${pvcSize}' is not a Kubernetes quantity: give e.g. --pvc-size ${DEFAULT_PVC_SIZE}`);
  const storageClass = typeof o['storageClass'] === 'string' ? o['storageClass'] : null;
  if (storageClass !== null && !isDnsSubdomain(storageClass)) problems.push(`--storage-class ${JSON.stringify(storageClass)} is not a DNS-1123 subdomain (a-z, 0-9, '-', '.', at most 253 characters): give the name of a StorageClass of the cluster (kubectl get storageclass), or leave it out for the cluster's default`);
  const image = typeof o['image'] === 'string' ? o['image'] : `vtbench-loadgen:${toolVersion()}`;
  if (!isImageReference(image)) problems.push(`--image ${JSON.stringify(image)} is not an image reference: give e.g. --image registry.example.com/vtbench-loadgen:${toolVersion()}`);
  if (problems.length > 0) throw new VtbenchError(`k8s: the manifests cannot be written:\n  ${problems.join('\n  ')}`, 'fix each line as it says; nothing was written', EXIT.usage);
  const syncTimeoutS = syncTimeout(o['syncTimeoutS']);
  // every pod gets the options as given: it resolves them as this command did, so it makes the same plan
  const given = OPTION_SPECS.filter((s) => raw[s.key] !== undefined && s.key !== 'shards').flatMap((s) => [`--${s.flag}`, raw[s.key]!]);
  const shardArgs = ['--study', study.id, '--profile', options.profile, ...given, '--shards', String(options.shards ?? 1), '--out', `${SHARED_MOUNT}/${name}`, '--sync-timeout-s', String(syncTimeoutS)];
  const outDir = typeof o['out'] === 'string' ? o['out'] : join('k8s', name);
  return {
    options,
    outDir,
    spec: {
      name, namespace, image, shards: options.shards ?? 1, pvc, pvcSize, storageClass, shardArgs, theoreticalS: plan.theoreticalS, syncTimeoutS, toolVersion: toolVersion(),
      plan: { study: study.id, profile: options.profile, cells: plan.cells.length, totalRequests: plan.totalRequests, planText: formatPlan(options, plan, `${SHARED_MOUNT}/${name}/shard-<index> (then merged)`) },
    },
  };
}

/** `run.mjs k8s`: write the manifests (src/plan/k8s-manifests.ts) and say where. Returns the exit code. */
export async function k8sCommand(o: Record<string, string | boolean | undefined>, io: Io, studies: readonly Study[]): Promise<number> {
  const { spec, outDir } = k8sSpecOf(o, studies);
  const paths = await writeAll(resolve(process.cwd(), outDir), k8sFiles(spec, outDir));
  io.stdout.write(`${paths.join('\n')}\nwritten, not applied: the commands are in ${join(outDir, 'README.md')}\n`);
  return EXIT.ok;
}

/** `run.mjs merge`: merge shard folders into one run folder. Returns the exit code (EXIT.runData when cells are missing from a shard). */
export function mergeCommand(dirs: readonly string[], out: string | null, runsDir: string, io: Io, now = new Date()): number {
  const abs = dirs.map((d) => resolve(process.cwd(), d));
  let outDir: string;
  if (out !== null) {
    outDir = resolve(process.cwd(), out);
  } else {
    const manifests = abs.filter((d) => new RunStore(d).exists()).map((d) => new RunStore(d).readManifest());
    const firstStart = manifests.map((m) => m.startedAt).sort()[0];
    const m = manifests[0];
    outDir = join(runsDir, m ? newRunId(m.options.study, m.options.profile, new Date(firstStart!)) : newRunId('run', 'merged', now));
  }
  const r = mergeShardRuns(abs, outDir, now);
  io.stdout.write(`merged ${r.manifest.mergedShards!.length} shards into ${r.runDir}: ${r.merged.length} of ${r.manifest.cellOrder.length} cells${r.gaps.length ? `; not merged (recorded as failed): ${r.gaps.map((g) => `${g.cellId} (${g.cause})`).join('; ')}` : ''}\nreport: npx zx run.mjs report ${r.runDir}\n`);
  return r.gaps.length === 0 ? EXIT.ok : EXIT.runData;
}
