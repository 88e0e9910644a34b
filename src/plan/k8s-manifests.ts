/**
 * `run.mjs k8s`: the Kubernetes manifests of a multi-host run, written, never applied. Pure: options
 * in, files (path + content) out; the CLI writes them (src/cli/multihost.ts).
 *
 * - `job.json`: an Indexed Job (`completionMode: Indexed`, completions = parallelism = K). The Job
 *   controller gives each pod its index in `JOB_COMPLETION_INDEX`; the pod runs `run.mjs shard`,
 *   which reads it, runs that shard of every cell's workers against `--sut-url` (the same study,
 *   profile and options for every pod, so the same plan: src/plan/plan.ts) and writes its shard
 *   folder to the shared volume (`<mount>/<name>/shard-<index>`), meeting the other pods at a barrier
 *   in `<mount>/<name>/sync` before and after every load (src/pipeline/pod-shard.ts). `backoffLimit: 0`
 *   and `restartPolicy: Never`: a failed pod is not retried into the same folder (the merge needs
 *   every shard of one attempt); `activeDeadlineSeconds` is the plan's theoretical duration × 2 plus
 *   the start barrier's timeout and 10 minutes, so a stuck Job ends.
 * - `pvc.json`: the shared volume, a ReadWriteMany PersistentVolumeClaim (every pod writes to it,
 *   from any node); skip it when the claim exists.
 * - `fetch-pod.json`: a pod that only mounts the claim, for `kubectl cp` of the shard folders.
 * - `Dockerfile`: the load generator's image (Node 20 and this repository's harness; no JDK: the
 *   SUT and the mock run elsewhere).
 * - `README.md`: build, push, apply, wait, copy back, merge, report — the commands with this run's
 *   names filled in.
 *
 * Schemas the manifests are checked against: schema/k8s/ (test/integration/k8s-multihost.test.ts).
 */
import { CONTROL_TOKEN_ENV } from '../adapters/process/control-token.ts';

/** The PersistentVolumeClaim the pods share when `--pvc` is not given. */
export const DEFAULT_PVC = 'vtbench-shards';
/** Where the pods mount the claim. */
export const SHARED_MOUNT = '/data';
/** How much the claim asks for when `--pvc-size` is not given (the raw requests of a cell take ≈ 40 B each, gzipped). */
export const DEFAULT_PVC_SIZE = '1Gi';

/** What the manifests are made from. */
export interface K8sSpec {
  /** the Job's name (a DNS-1123 label); also the folder on the volume */
  name: string;
  /** the namespace, or null for the one kubectl uses */
  namespace: string | null;
  /** the load generator's image, as the cluster pulls it */
  image: string;
  /** K */
  shards: number;
  /** the claim's name, and whether (and how big) to write its manifest */
  pvc: string;
  pvcSize: string;
  /** optional storage class of the claim (null: the cluster's default) */
  storageClass: string | null;
  /**
   * the arguments of `run.mjs shard` after `shard`, the same for every pod (study, profile, every
   * option the user gave, `--shards`, `--sut-url`, `--mock-url`, `--out`); the index comes from the
   * environment
   */
  shardArgs: string[];
  /** the plan's theoretical duration, s (src/plan/plan.ts) */
  theoreticalS: number;
  /** the start barrier's timeout, s */
  syncTimeoutS: number;
  /** for the README: study, profile, cells, requests */
  plan: { study: string; profile: string; cells: number; totalRequests: number; planText: string };
  /** the tool's version (image tag suggestion) */
  toolVersion: string;
}

/** One file to write, relative to the output folder. */
export interface K8sFile {
  path: string;
  content: string;
}

/** A DNS-1123 label of at most `max` characters: lower-case letters, digits and '-', alphanumeric at both ends. */
export function isDnsLabel(s: string, max = 63): boolean {
  return s.length > 0 && s.length <= max && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(s);
}

/**
 * A DNS-1123 subdomain (the name of most Kubernetes objects, e.g. a StorageClass): at most 253
 * characters, dot-separated DNS-1123 labels (lower-case letters, digits, '-').
 */
export function isDnsSubdomain(s: string): boolean {
  return s.length > 0 && s.length <= 253 && s.split('.').every((part) => isDnsLabel(part));
}

/**
 * An image reference as the pods' `image` and the README's `docker` commands take it: registry
 * host[:port], path, tag and digest characters only (no quote, space or control character).
 */
export function isImageReference(s: string): boolean {
  return s.length > 0 && s.length <= 4096 && /^[A-Za-z0-9][A-Za-z0-9._\-/:@+]*$/.test(s);
}

/** `vtbench-<study>-<profile>` made a DNS-1123 label (lower case, other characters to '-', at most 50). Pure. */
export function defaultJobName(study: string, profile: string): string {
  return `vtbench-${study}-${profile}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/-+/g, '-').slice(0, 50).replace(/^-+|-+$/g, '');
}

/** The Job's deadline, s: twice the plan's theoretical duration, plus the start barrier's timeout and 10 minutes. */
export function activeDeadlineS(theoreticalS: number, syncTimeoutS: number): number {
  return Math.ceil(2 * theoreticalS + syncTimeoutS + 600);
}

function meta(spec: K8sSpec, name: string): Record<string, unknown> {
  return { name, ...(spec.namespace !== null ? { namespace: spec.namespace } : {}), labels: { 'app.kubernetes.io/name': 'vtbench', 'app.kubernetes.io/instance': spec.name } };
}

/** The Secret that holds the run's control token for the pods (key `token`). */
export function controlSecretName(spec: Pick<K8sSpec, 'name'>): string {
  return `${spec.name}-control`;
}

/** The Indexed Job (see the file comment). Pure. */
export function jobManifest(spec: K8sSpec): Record<string, unknown> {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: meta(spec, spec.name),
    spec: {
      completionMode: 'Indexed',
      completions: spec.shards,
      parallelism: spec.shards,
      backoffLimit: 0,
      activeDeadlineSeconds: activeDeadlineS(spec.theoreticalS, spec.syncTimeoutS),
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'vtbench', 'app.kubernetes.io/instance': spec.name } },
        spec: {
          restartPolicy: 'Never',
          // one generator per node where the cluster has the nodes: the point of more hosts
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { 'app.kubernetes.io/instance': spec.name } } }],
          containers: [{
            name: 'shard',
            image: spec.image,
            workingDir: '/opt/vtbench',
            // JOB_COMPLETION_INDEX is set by the Job controller; run.mjs shard reads it
            command: ['npx', 'zx', 'run.mjs', 'shard', ...spec.shardArgs],
            // the run's control token (src/adapters/process/control-token.ts) from a Secret, never in the command
            env: [{ name: CONTROL_TOKEN_ENV, valueFrom: { secretKeyRef: { name: controlSecretName(spec), key: 'token' } } }],
            volumeMounts: [{ name: 'shared', mountPath: SHARED_MOUNT }],
          }],
          volumes: [{ name: 'shared', persistentVolumeClaim: { claimName: spec.pvc } }],
        },
      },
    },
  };
}

/** The shared ReadWriteMany claim. Pure. */
export function pvcManifest(spec: K8sSpec): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: meta(spec, spec.pvc),
    spec: {
      accessModes: ['ReadWriteMany'],
      resources: { requests: { storage: spec.pvcSize } },
      ...(spec.storageClass !== null ? { storageClassName: spec.storageClass } : {}),
    },
  };
}

/** A pod that mounts the claim and waits, for `kubectl cp`. Pure. */
export function fetchPodManifest(spec: K8sSpec): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(spec, `${spec.name}-fetch`),
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'fetch', image: spec.image, command: ['sleep', '3600'], volumeMounts: [{ name: 'shared', mountPath: SHARED_MOUNT, readOnly: true }] }],
      volumes: [{ name: 'shared', persistentVolumeClaim: { claimName: spec.pvc, readOnly: true } }],
    },
  };
}

/** The load generator's image: Node 20 with the harness (run from the repository root as build context). */
export function dockerfile(): string {
  return [
    '# The vtbench load generator for `run.mjs shard` (no JDK: the SUT and the mock run elsewhere).',
    '# Build from the repository root: docker build -f <this file> -t <image> .',
    'FROM node:20-bookworm-slim',
    'WORKDIR /opt/vtbench',
    'COPY package.json package-lock.json ./',
    'RUN npm ci --omit=dev --no-audit --no-fund',
    'COPY run.mjs tsconfig.json ./',
    'COPY src ./src',
    'COPY mock ./mock',
    'COPY schema ./schema',
    'COPY templates ./templates',
    '',
  ].join('\n');
}

/** A shell word, quoted only when it needs to be. */
function sh(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The README of the output folder: the flow with this run's names. Pure. */
export function readme(spec: K8sSpec, outDir: string): string {
  const ns = spec.namespace !== null ? ` -n ${spec.namespace}` : '';
  const folder = `${SHARED_MOUNT}/${spec.name}`;
  const shardDirs = Array.from({ length: spec.shards }, (_, i) => `shards/${spec.name}/shard-${i}`).join(' ');
  return [
    `# vtbench on Kubernetes: ${spec.name}`,
    '',
    `Study ${spec.plan.study}, profile ${spec.plan.profile}: ${spec.plan.cells} cells, ${spec.plan.totalRequests.toLocaleString('en-US')} requests, split over ${spec.shards} load generator pods (an Indexed Job). Written by \`npx zx run.mjs k8s\`; nothing was applied.`,
    '',
    '```',
    spec.plan.planText,
    '```',
    '',
    'Before you start: the SUT and the mock run already and the pods reach them at the URLs below',
    '(a local run checks the same things: the SUT reports the one variant of the run, calls that mock,',
    "and the mock answers with the run's latency). Every pod checks them before it loads anything.",
    'The node clocks must agree (NTP): the shards start each cell at the same wall-clock instant.',
    '',
    '```sh',
    '# 1. build the load generator image from the repository root and push it where the cluster pulls from',
    `docker build -f ${sh(`${outDir}/Dockerfile`)} -t ${sh(spec.image)} .`,
    `docker push ${sh(spec.image)}`,
    '',
    `# 2. the control token (the same ${CONTROL_TOKEN_ENV} the SUT and the mock were started with; printf is a`,
    '#    shell builtin, so the value is on no command line), the shared volume (ReadWriteMany; skip when',
    `#    the claim ${spec.pvc} exists), then the Job`,
    `kubectl${ns} create secret generic ${controlSecretName(spec)} --from-env-file=<(printf 'token=%s\\n' "$${CONTROL_TOKEN_ENV}")`,
    `kubectl${ns} apply -f ${sh(`${outDir}/pvc.json`)}`,
    `kubectl${ns} apply -f ${sh(`${outDir}/job.json`)}`,
    `kubectl${ns} wait --for=condition=complete --timeout=${activeDeadlineS(spec.theoreticalS, spec.syncTimeoutS)}s job/${spec.name}`,
    `kubectl${ns} logs -l app.kubernetes.io/instance=${spec.name} --prefix --tail=20`,
    '',
    '# 3. copy the shard folders back through a pod that mounts the volume',
    `kubectl${ns} apply -f ${sh(`${outDir}/fetch-pod.json`)}`,
    `kubectl${ns} wait --for=condition=ready pod/${spec.name}-fetch`,
    `mkdir -p shards && kubectl${ns} cp ${spec.namespace !== null ? `${spec.namespace}/` : ''}${spec.name}-fetch:${folder} shards/${spec.name}`,
    `kubectl${ns} delete pod ${spec.name}-fetch`,
    '',
    '# 4. merge the shards into one run (totals summed, percentiles from the merged raw records), then its report',
    `npx zx run.mjs merge ${shardDirs} --out runs/${spec.name}`,
    `npx zx run.mjs report runs/${spec.name}`,
    '```',
    '',
    `Each pod writes \`${folder}/shard-<JOB_COMPLETION_INDEX>\` and meets the others in \`${folder}/sync\`; a second`,
    `attempt needs a fresh folder: delete \`${folder}\` (or write the manifests again with another \`--name\`) and`,
    `\`kubectl${ns} delete job ${spec.name}\` first. A failed pod fails the Job (\`backoffLimit: 0\`); the others stop at`,
    `their next barrier. The Job ends after ${activeDeadlineS(spec.theoreticalS, spec.syncTimeoutS)} s at most (\`activeDeadlineSeconds\`: twice the plan's theoretical`,
    `${Math.round(spec.theoreticalS)} s, plus ${spec.syncTimeoutS} s for the pods to meet, plus 10 minutes).`,
    '',
  ].join('\n');
}

/** Every file of the output folder, in write order. Pure. */
export function k8sFiles(spec: K8sSpec, outDir: string): K8sFile[] {
  const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
  return [
    { path: 'job.json', content: json(jobManifest(spec)) },
    { path: 'pvc.json', content: json(pvcManifest(spec)) },
    { path: 'fetch-pod.json', content: json(fetchPodManifest(spec)) },
    { path: 'Dockerfile', content: dockerfile() },
    { path: 'README.md', content: readme(spec, outDir) },
  ];
}
