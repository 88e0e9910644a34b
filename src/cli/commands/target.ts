/**
 * `run.mjs target`: measure a Spring Boot service vtbench did not build (issue 32). Resolves the
 * options into a TargetManifest (tier, arms, the request mix, levels), builds the agent jar when a
 * JVM tier needs it, runs the cells (src/pipeline/target.ts) and writes the report
 * (src/report/target/), then prints the answer on stdout and checks `--thresholds` (run rules per
 * `<arm>@<level>`, src/report/thresholds/target.ts; exit 9 when one is broken).
 */
import { createHash } from 'node:crypto';
import { existsSync, createReadStream, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import os from 'node:os';
import { EXIT, VtbenchError } from '../../types/errors.ts';
import type { TargetArm, TargetManifest, TargetTier } from '../../types/target.ts';
import { checkPlaceholders, placeholdersIn, type PlaceholderName, redactArgs } from '../../compute/target/placeholders.ts';
import { readRequestFile } from '../../adapters/target/request-file.ts';
import { findJdk, requireSutJdk } from '../../adapters/jvm/jdk.ts';
import { buildSut } from '../../adapters/jvm/build.ts';
import { AGENT_DIR, AGENT_JAR_NAME } from '../../adapters/jvm/paths.ts';
import { freePort } from '../../adapters/db/postgres.ts';
import { readJson } from '../../adapters/store/fsio.ts';
import { runTarget } from '../../pipeline/target.ts';
import { BUILT_IN_ARMS, virtualThreadsOfArmId } from '../../studies/target/arms.ts';
import { writeTargetReport } from '../../report/target/index.ts';
import { readTargetRun } from '../../report/target/load.ts';
import { loadThresholds } from '../../report/thresholds/rules.ts';
import { enforce } from '../../report/thresholds/check.ts';
import { checkTargetRules, checkTargetRun } from '../../report/thresholds/target.ts';
import type { Io } from '../common.ts';
import { dirOption } from '../context.ts';
import { holdsNothing } from '../run-folder.ts';

/** The options of `target` as commander gives them. */
export interface TargetOpts {
  requests?: string;
  targetJar?: string;
  url?: string[];
  agent?: boolean;
  targetArg?: string[];
  targetJvmArg?: string[];
  targetEnv?: string[];
  targetDb?: string;
  targetMock?: string;
  arm?: string[];
  arms?: string;
  levels?: string;
  rates?: string;
  durationS?: string;
  arrival?: string;
  arrivalSeed?: string;
  maxInFlight?: string;
  warmupS?: string;
  requestsPerWorker?: string;
  warmupRequests?: string;
  aloneProbe?: string;
  repeats?: string;
  pinnedThresholdMs?: string;
  /** the former name of --pinned-threshold-ms (hidden; the new name wins when both are given) */
  pinThresholdMs?: string;
  samplerIntervalMs?: string;
  targetPort?: string;
  readyTimeoutS?: string;
  timeoutS?: string;
  runId?: string;
  runsDir?: string;
  reportDir?: string;
  report?: boolean;
  thresholds?: string;
}

/** Defaults of `target`, shown by --help. */
export const TARGET_DEFAULTS = {
  levels: '1,10,50,100,200',
  requestsPerWorker: 40,
  warmupRequests: 10,
  aloneProbe: 50,
  repeats: 1,
  pinThresholdMs: 20,
  samplerIntervalMs: 250,
  readyTimeoutS: 180,
  timeoutS: 120,
  durationS: 20,
  arrival: 'poisson',
  arrivalSeed: 1,
  maxInFlight: 1000,
  warmupS: 5,
} as const;

function int(v: string | undefined, def: number | null, flag: string, min = 1): number {
  if (v === undefined && def !== null) return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new VtbenchError(`--${flag} ${v}: not an integer ≥ ${min}`, `give --${flag} as a whole number${def === null ? '' : ` (default ${def})`}`, EXIT.usage);
  return n;
}

/**
 * The levels (closed loop: clients) or rates (open loop: arrivals per second): a comma-separated list of
 * positive integers, returned ascending without repeats.
 * @throws VtbenchError(EXIT.usage) naming --levels or --rates
 */
export function parseLevels(v: string, flag: 'levels' | 'rates' = 'levels'): number[] {
  const xs = v.split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number);
  if (xs.length === 0 || xs.some((x) => !Number.isInteger(x) || x < 1)) {
    throw new VtbenchError(`--${flag} ${v}: not a list of ${flag === 'levels' ? 'concurrencies' : 'arrival rates'}`, flag === 'levels' ? 'give --levels as whole numbers ≥ 1, e.g. --levels 1,10,50,100,200' : 'give --rates as whole arrivals per second ≥ 1, e.g. --rates 50,100,200', EXIT.usage);
  }
  return [...new Set(xs)].sort((a, b) => a - b);
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,30}$/;

/**
 * The arms of a run (pure). Black box: one per `--url [arm=]URL` (an unnamed single URL is arm
 * `service`). Jar tiers: `platform` (spring.threads.virtual.enabled=false) and `virtual` (=true),
 * filtered by `--arms`, plus each `--arm id:key=value[,key=value…]`.
 * @throws VtbenchError(EXIT.usage) naming the option
 */
export function armsOf(tier: TargetTier, o: Pick<TargetOpts, 'url' | 'arm' | 'arms'>): TargetArm[] {
  if (tier === 'black-box') {
    const urls = o.url ?? [];
    return urls.map((u, i) => {
      const m = /^([a-z0-9][a-z0-9-]*)=(https?:\/\/.+)$/.exec(u);
      const id = m ? m[1]! : urls.length === 1 ? 'service' : `url${i + 1}`;
      const url = m ? m[2]! : u;
      if (!/^https?:\/\/[^/]+/.test(url)) throw new VtbenchError(`--url ${u}: not an http(s) URL`, 'give --url [arm=]http://host:port, e.g. --url platform=http://127.0.0.1:8080 --url virtual=http://127.0.0.1:8081', EXIT.usage);
      return { id, label: id, url: url.replace(/\/$/, ''), properties: {}, virtualThreads: virtualThreadsOfArmId(id) };
    });
  }
  const wanted = (o.arms ?? 'platform,virtual').split(',').map((s) => s.trim()).filter(Boolean);
  const base: TargetArm[] = BUILT_IN_ARMS.map((a) => ({ ...a, properties: { ...a.properties } }));
  for (const w of wanted) if (!base.some((a) => a.id === w)) throw new VtbenchError(`--arms ${o.arms}: unknown arm '${w}'`, 'use --arms platform,virtual (or one of them); add your own with --arm id:key=value', EXIT.usage);
  const arms = base.filter((a) => wanted.includes(a.id));
  for (const spec of o.arm ?? []) {
    const m = /^([a-z0-9][a-z0-9-]*):(.+)$/.exec(spec);
    if (!m || !SLUG.test(m[1]!)) throw new VtbenchError(`--arm ${spec}: not id:key=value[,key=value]`, 'e.g. --arm tomcat400:spring.threads.virtual.enabled=false,server.tomcat.threads.max=400', EXIT.usage);
    const properties: Record<string, string> = {};
    for (const kv of m[2]!.split(',')) {
      const i = kv.indexOf('=');
      if (i <= 0) throw new VtbenchError(`--arm ${spec}: '${kv}' is not key=value`, 'e.g. --arm tomcat400:server.tomcat.threads.max=400', EXIT.usage);
      properties[kv.slice(0, i)] = kv.slice(i + 1);
    }
    if (arms.some((a) => a.id === m[1])) throw new VtbenchError(`--arm ${spec}: arm '${m[1]}' exists already`, 'give it another id', EXIT.usage);
    const vt = properties['spring.threads.virtual.enabled'];
    arms.push({ id: m[1]!, label: m[1]!, url: null, properties, virtualThreads: vt === undefined ? null : vt === 'true' });
  }
  if (arms.length === 0) throw new VtbenchError('no arm to measure', 'use --arms platform,virtual or --arm', EXIT.usage);
  return arms;
}

/**
 * `--target-env NAME=VALUE` or `--target-env NAME` (the value taken from vtbench's own environment,
 * so a secret never reaches the command line). Returns the values and the names for the record.
 * @throws VtbenchError(EXIT.usage) for a bad name or a NAME not set
 */
export function targetEnvOf(specs: readonly string[], env: NodeJS.ProcessEnv): { values: Record<string, string>; names: string[] } {
  const values: Record<string, string> = {};
  for (const s of specs) {
    const i = s.indexOf('=');
    const name = i < 0 ? s : s.slice(0, i);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new VtbenchError(`--target-env ${name}: not an environment variable name`, 'give --target-env NAME (copied from your environment) or NAME=VALUE', EXIT.usage);
    if (i < 0) {
      const v = env[name];
      if (v === undefined) throw new VtbenchError(`--target-env ${name}: ${name} is not set in this environment`, `export ${name}=… first, or give --target-env ${name}=VALUE for a value that is not secret`, EXIT.usage);
      values[name] = v;
    } else values[name] = s.slice(i + 1);
  }
  return { values, names: Object.keys(values) };
}

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

function stamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/** `target`: see the module comment. Returns the exit code. */
export async function targetCommand(o: TargetOpts, io: Io): Promise<number> {
  if (!o.requests) throw new VtbenchError('target needs a request file', 'give --requests <file.jsonl>: one JSON object per line, e.g. {"name":"owners","method":"GET","path":"/owners?lastName="}', EXIT.usage);
  if (!o.targetJar && (o.url ?? []).length === 0) throw new VtbenchError('target needs a service to measure', 'give --target-jar app.jar (vtbench starts it on platform and on virtual threads) or --url [arm=]http://host:port (a running service)', EXIT.usage);
  if (o.targetJar && (o.url ?? []).length > 0) throw new VtbenchError('--target-jar and --url exclude each other', 'give one: --target-jar (vtbench starts the jar) or --url (a running service)', EXIT.usage);
  if (o.agent && !o.targetJar) throw new VtbenchError('--agent needs --target-jar', 'the agent is loaded into a JVM vtbench starts: give --target-jar', EXIT.usage);
  const tier: TargetTier = o.targetJar ? (o.agent ? 'agent' : 'jar') : 'black-box';
  // everything the user can get wrong is checked before anything starts
  const thresholds = o.thresholds === undefined ? null : loadThresholds(resolve(o.thresholds));
  if (thresholds) checkTargetRules(thresholds);
  const mix = readRequestFile(o.requests);
  const arms = armsOf(tier, o);
  if (o.rates !== undefined && o.levels !== undefined) throw new VtbenchError('--rates and --levels exclude each other', 'give --levels (closed loop: concurrent clients) or --rates (open loop: arrivals per second)', EXIT.usage);
  const flag = (k: string): string => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  const openLoopOnly = (['durationS', 'arrival', 'arrivalSeed', 'maxInFlight', 'warmupS'] as const).filter((k) => o[k] !== undefined);
  if (o.rates === undefined && openLoopOnly.length > 0) throw new VtbenchError(`${openLoopOnly.map(flag).join(', ')}: open loop only`, 'add --rates <r1,r2,…> (arrivals per second) for an open-loop run, or drop them', EXIT.usage);
  const closedLoopOnly = (['requestsPerWorker', 'warmupRequests'] as const).filter((k) => o[k] !== undefined);
  if (o.rates !== undefined && closedLoopOnly.length > 0) throw new VtbenchError(`${closedLoopOnly.map(flag).join(', ')}: closed loop only (with --rates a cell lasts --duration-s and warms up for --warmup-s)`, 'drop them, or use --levels for a closed-loop run', EXIT.usage);
  const mode: TargetManifest['mode'] = o.rates !== undefined ? 'open-loop' : 'closed-loop';
  const levels = mode === 'open-loop' ? parseLevels(o.rates!, 'rates') : parseLevels(o.levels ?? TARGET_DEFAULTS.levels);
  if (o.arrival !== undefined && o.arrival !== 'constant' && o.arrival !== 'poisson') throw new VtbenchError(`--arrival ${o.arrival}: unknown`, 'give --arrival poisson (exponential gaps, seeded) or constant (every 1/λ)', EXIT.usage);
  if (o.arrivalSeed !== undefined && o.arrival === 'constant') throw new VtbenchError('--arrival-seed: constant arrivals have no seed (request i is sent at i/λ)', 'drop --arrival-seed, or use --arrival poisson (the default) for seeded exponential gaps', EXIT.usage);
  const openLoop = mode === 'open-loop'
    ? { arrival: (o.arrival ?? TARGET_DEFAULTS.arrival) as 'constant' | 'poisson', seed: int(o.arrivalSeed, TARGET_DEFAULTS.arrivalSeed, 'arrival-seed', 0), maxInFlight: int(o.maxInFlight, TARGET_DEFAULTS.maxInFlight, 'max-in-flight'), warmupS: int(o.warmupS, TARGET_DEFAULTS.warmupS, 'warmup-s', 0) }
    : null;
  const env = targetEnvOf(o.targetEnv ?? [], process.env);
  if (o.targetDb !== undefined && o.targetDb !== 'postgres' && o.targetDb !== 'none') throw new VtbenchError(`--target-db ${o.targetDb}: unknown`, 'give --target-db postgres (vtbench starts one and passes POSTGRES_URL/USER/PASS and SPRING_DATASOURCE_*) or none', EXIT.usage);
  if (o.targetDb === 'postgres' && tier === 'black-box') throw new VtbenchError('--target-db postgres needs --target-jar', 'vtbench passes the database to a jar it starts; a running service (--url) was started with its own database', EXIT.usage);
  if (o.targetMock !== undefined && tier === 'black-box') throw new VtbenchError('--target-mock needs --target-jar', 'vtbench passes the mock\'s address to a jar it starts ({mockUrl} in --target-arg); a running service (--url) was started with its own downstreams', EXIT.usage);
  const mockLatencyMs = o.targetMock === undefined ? null : int(o.targetMock, null, 'target-mock', 0);
  const pinThresholdMs = o.pinnedThresholdMs !== undefined ? int(o.pinnedThresholdMs, TARGET_DEFAULTS.pinThresholdMs, 'pinned-threshold-ms', 0) : int(o.pinThresholdMs, TARGET_DEFAULTS.pinThresholdMs, 'pin-threshold-ms', 0);
  // the study runs' maximum (src/plan/options.ts): a pin that long is a stall, not a threshold
  if (pinThresholdMs > 60_000) throw new VtbenchError(`--pinned-threshold-ms ${pinThresholdMs}: at most 60000`, 'give a threshold in ms up to 60000 (the default 20 counts pins of 20 ms or more; 0 counts every one)', EXIT.usage);
  const provided = new Set<PlaceholderName>([...(mockLatencyMs !== null ? ['mockUrl' as const] : []), ...(o.targetDb === 'postgres' ? ['dbUrl' as const, 'dbUser' as const, 'dbPassword' as const] : [])]);
  for (const a of arms) {
    const used = Object.entries(a.properties).filter(([, v]) => placeholdersIn(v).length > 0).map(([k]) => k);
    if (used.length) throw new VtbenchError(`--arm ${a.id}: ${used.join(', ')} holds a placeholder`, 'an arm\'s properties are its own settings; pass a downstream\'s address once for every arm: --target-arg=--key={mockUrl}', EXIT.usage);
  }
  checkPlaceholders([
    ...(o.targetArg ?? []).map((value) => ({ option: `--target-arg ${redactArgs([value])[0]}`, value })),
    ...(o.targetJvmArg ?? []).map((value) => ({ option: `--target-jvm-arg ${redactArgs([value])[0]}`, value })),
    ...Object.entries(env.values).map(([name, value]) => ({ option: `--target-env ${name}`, value })),
  ], provided);
  const jarPath = o.targetJar ? resolve(o.targetJar) : null;
  if (jarPath !== null && !existsSync(jarPath)) throw new VtbenchError(`--target-jar ${o.targetJar}: no such file`, 'give the path of your Spring Boot jar (e.g. target/app.jar after mvn package)', EXIT.usage);
  const runsDir = dirOption(o.runsDir, 'runs');
  const runId = o.runId ?? `${stamp(new Date())}-target-${jarPath ? basename(jarPath, '.jar').toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, 30) : arms.map((a) => a.id).join('-')}`;
  if (!/^[A-Za-z0-9._-]+$/.test(runId)) throw new VtbenchError(`--run-id ${runId}: only letters, digits, . _ -`, 'choose another --run-id', EXIT.usage);
  const runDir = join(runsDir, runId);
  const port = o.targetPort ? int(o.targetPort, 0, 'target-port') : await freePort();
  const jdk = tier === 'black-box' ? null : findJdk(21);
  if (jdk) requireSutJdk(jdk);
  const existing = existsSync(join(runDir, 'manifest.json')) ? readJson<TargetManifest>(join(runDir, 'manifest.json')) : null;
  const manifest: TargetManifest = existing ?? {
    kind: 'target',
    schemaVersion: 1,
    runId,
    createdAt: new Date().toISOString(),
    tier,
    jar: jarPath ? { path: jarPath, sha256: await sha256File(jarPath), args: redactArgs(o.targetArg ?? []), env: env.names, jvmArgs: redactArgs(o.targetJvmArg ?? []) } : null,
    mix,
    arms,
    levels,
    mode,
    repeats: int(o.repeats, TARGET_DEFAULTS.repeats, 'repeats'),
    requestsPerWorker: int(o.requestsPerWorker, TARGET_DEFAULTS.requestsPerWorker, 'requests-per-worker'),
    durationS: mode === 'open-loop' ? int(o.durationS, TARGET_DEFAULTS.durationS, 'duration-s') : null,
    openLoop,
    warmupRequestsPerWorker: int(o.warmupRequests, TARGET_DEFAULTS.warmupRequests, 'warmup-requests', 0),
    aloneProbeRequests: int(o.aloneProbe, TARGET_DEFAULTS.aloneProbe, 'alone-probe', 0),
    samplerIntervalMs: int(o.samplerIntervalMs, TARGET_DEFAULTS.samplerIntervalMs, 'sampler-interval-ms', 50),
    pinThresholdMs,
    db: o.targetDb === 'postgres' ? { serverVersion: '' } : null,
    mock: mockLatencyMs === null ? null : { latencyMs: mockLatencyMs },
    jvm: {},
    host: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown', kernel: os.release(), node: process.version },
    probes: [],
    failed: [],
    finishedAt: null,
  };
  if (existing) {
    const now = { requestFile: mix.sha256, jar: manifest === existing && jarPath ? await sha256File(jarPath) : null, tier, arms: JSON.stringify(arms.map((a) => [a.id, a.url, a.properties])), levels: levels.join(','), repeats: int(o.repeats, TARGET_DEFAULTS.repeats, 'repeats'), requestsPerWorker: int(o.requestsPerWorker, TARGET_DEFAULTS.requestsPerWorker, 'requests-per-worker'), mock: mockLatencyMs, db: o.targetDb === 'postgres', mode, durationS: mode === 'open-loop' ? int(o.durationS, TARGET_DEFAULTS.durationS, 'duration-s') : null, openLoop: JSON.stringify(openLoop) };
    const was = { requestFile: existing.mix.sha256, jar: existing.jar?.sha256 ?? null, tier: existing.tier, arms: JSON.stringify(existing.arms.map((a) => [a.id, a.url, a.properties])), levels: existing.levels.join(','), repeats: existing.repeats, requestsPerWorker: existing.requestsPerWorker, mock: existing.mock?.latencyMs ?? null, db: existing.db !== null, mode: existing.mode, durationS: existing.durationS, openLoop: JSON.stringify(existing.openLoop ?? null) };
    const diff = (Object.keys(now) as (keyof typeof now)[]).filter((k) => String(now[k]) !== String(was[k]));
    if (diff.length) throw new VtbenchError(`run ${runId} exists and was started with another ${diff.join(', ')}`, 'give the options it was started with to continue it (see its manifest.json), or choose another --run-id', EXIT.usage);
  }
  if (existing) io.stderr.write(`continuing run ${runId}: cells already measured are kept\n`);
  else if (existsSync(runDir)) throw new VtbenchError(`${runDir} exists and is not a target run`, 'choose another --run-id', EXIT.usage);
  const agentJar = jdk ? await buildSut({ jdk, sutDir: AGENT_DIR, jarName: AGENT_JAR_NAME, what: 'the vtbench agent (sut/agent)' }) : null;
  const ac = new AbortController();
  const onSig = (): void => ac.abort();
  process.on('SIGINT', onSig);
  process.on('SIGTERM', onSig);
  try {
    await runTarget({
      manifest,
      runDir,
      jdk,
      agentJar,
      targetEnv: env.values,
      userArgs: o.targetArg ?? [],
      jvmArgs: o.targetJvmArg ?? [],
      port,
      readyTimeoutMs: int(o.readyTimeoutS, TARGET_DEFAULTS.readyTimeoutS, 'ready-timeout-s') * 1000,
      timeoutMs: int(o.timeoutS, TARGET_DEFAULTS.timeoutS, 'timeout-s') * 1000,
      log: (l) => io.stderr.write(l + '\n'),
      signal: ac.signal,
    });
  } catch (e) {
    // a new run that failed before it measured anything (no cell, no failed cell, no log that explains
    // it) leaves no run folder behind, as a study run does (docs/exit-codes.md)
    if (!existing && manifest.failed.length === 0 && existsSync(runDir) && holdsNothing(runDir)) {
      try {
        rmSync(runDir, { recursive: true, force: true });
        io.stderr.write(`nothing was measured; removed the run folder ${runDir}\n`);
      } catch (rmError) {
        io.stderr.write(`nothing was measured; the run folder ${runDir} could not be removed: ${(rmError as Error).message}\n`);
      }
    }
    throw e; // the run's own error and exit code, whatever the clean-up did
  } finally {
    process.off('SIGINT', onSig);
    process.off('SIGTERM', onSig);
  }
  io.stderr.write(`run written to ${runDir}\n`);
  if (o.report !== false) {
    const reportDir = dirOption(o.reportDir, 'report');
    const written = await writeTargetReport(runDir, join(reportDir, runId));
    io.stdout.write(written.answerText + '\n');
    io.stderr.write(`report: ${written.paths.find((f) => f.endsWith('index.html')) ?? join(reportDir, runId)}\n`);
  }
  if (thresholds) enforce(thresholds, checkTargetRun(thresholds, await readTargetRun(runDir)), io.stderr, o.report === false ? 'the run is written' : 'the run and its report are written');
  return EXIT.ok;
}
