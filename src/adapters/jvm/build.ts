/**
 * Builds the SUT fat jar with Maven, only when its sources changed: a SHA-256 over sut/pom.xml and
 * every file under sut/src/main is stored next to the jar (`vtbench-sut.jar.sha256`) and compared.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync, renameSync, createWriteStream } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { EXIT, VtbenchError } from '../../types/errors.ts';
import { jdkEnv, refuseJvmInTestTiers, requireSutJdk, type Jdk } from './jdk.ts';
import { REPO_ROOT, SUT_DIR, SUT_JAR_NAME } from './paths.ts';

export interface BuildOptions {
  jdk: Jdk;
  /** Maven output goes here (appended); without it, only the tail is kept in memory */
  logFile?: string;
  /** defaults to the repository's sut/ */
  sutDir?: string;
  /** build even when the stored hash matches */
  force?: boolean;
  /** the jar Maven writes under `<sutDir>/target/`; defaults to the SUT's (vtbench-sut.jar) */
  jarName?: string;
  /** what is built, for messages (default `the SUT`) */
  what?: string;
  /** the Maven executable; defaults to `mvn` on PATH */
  mvn?: string;
  /** the run's abort (SIGINT/SIGTERM): stops Maven at once (SIGTERM, SIGKILL after 2 s) */
  signal?: AbortSignal;
}

/** The error of a build or a start stopped by the run's abort (exit 130). */
export function interruptedError(what: string): VtbenchError {
  return new VtbenchError(`${what} was stopped: the run was interrupted`, 'run again (finished cells are kept; continue with --resume <run id>)', EXIT.interrupted);
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out;
}

/** SHA-256 over relative path + content of pom.xml and src/main/**, in sorted path order. */
export function sourceHash(sutDir: string = SUT_DIR): string {
  const files = [join(sutDir, 'pom.xml'), ...listFiles(join(sutDir, 'src', 'main'))]
    .filter((f) => existsSync(f))
    .map((f) => ({ f, rel: relative(sutDir, f).split(sep).join('/') }))
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const h = createHash('sha256');
  for (const { f, rel } of files) {
    h.update(rel).update('\0').update(readFileSync(f)).update('\0');
  }
  return h.digest('hex');
}

export function jarPathOf(sutDir: string = SUT_DIR, jarName: string = SUT_JAR_NAME): string {
  return join(sutDir, 'target', jarName);
}

/** True when the jar exists and was built from the current sources. */
export function isUpToDate(sutDir: string = SUT_DIR, jarName: string = SUT_JAR_NAME): boolean {
  const jar = jarPathOf(sutDir, jarName);
  const stamp = `${jar}.sha256`;
  return existsSync(jar) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === sourceHash(sutDir);
}

/**
 * Returns the path of an up-to-date jar, running `mvn -q -f sut/pom.xml -DskipTests package` with
 * JAVA_HOME set to `jdk` when needed.
 * @throws VtbenchError {@link EXIT.build} with the tail of Maven's output when the build fails;
 *   {@link EXIT.prerequisite} in the unit and integration test tiers (refuseJvmInTestTiers)
 */
export async function buildSut(opts: BuildOptions): Promise<string> {
  const what = opts.what ?? 'the SUT';
  refuseJvmInTestTiers(`building ${what}`);
  const sutDir = opts.sutDir ?? SUT_DIR;
  requireSutJdk(opts.jdk);
  const jar = jarPathOf(sutDir, opts.jarName);
  const hash = sourceHash(sutDir);
  if (!opts.force && isUpToDate(sutDir, opts.jarName)) return jar;

  const args = ['-q', '-B', '-f', join(sutDir, 'pom.xml'), '-DskipTests', 'package'];
  if (opts.signal?.aborted) throw interruptedError(`${what} build`);
  const { code, tail } = await runMaven(opts.mvn ?? 'mvn', args, opts.jdk, opts.logFile, opts.signal);
  if (opts.signal?.aborted) throw interruptedError(`${what} build`);
  if (code !== 0 || !existsSync(jar)) {
    const dir = relative(REPO_ROOT, sutDir) || '.';
    throw new VtbenchError(
      `building ${what} failed (mvn ${args.join(' ')} exited ${code}):\n${tail}`,
      opts.logFile ? `see ${opts.logFile}; fix ${dir}/ and run again` : `fix ${dir}/ and run again`,
      EXIT.build,
    );
  }
  const stamp = `${jar}.sha256`;
  writeFileSync(`${stamp}.tmp`, `${hash}\n`);
  renameSync(`${stamp}.tmp`, stamp);
  return jar;
}

const TAIL_LINES = 40;

/**
 * Runs Maven, teeing output to the log file, and keeps the last lines for error messages. An abort
 * of `signal` stops it (SIGTERM, SIGKILL after 2 s); it then resolves with Maven's exit code.
 */
export function runMaven(
  mvn: string,
  args: readonly string[],
  jdk: Jdk,
  logFile?: string,
  signal?: AbortSignal,
): Promise<{ code: number; tail: string }> {
  return new Promise((resolve, reject) => {
    if (logFile) mkdirSync(dirname(logFile), { recursive: true });
    const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : null;
    const lines: string[] = [];
    let partial = '';
    const keep = (chunk: Buffer): void => {
      log?.write(chunk);
      const text = partial + chunk.toString('utf8');
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const l of parts) {
        if (/^WARNING: .*(sun\.misc\.Unsafe|terminally deprecated)/.test(l)) continue;
        lines.push(l);
        if (lines.length > TAIL_LINES) lines.shift();
      }
    };
    const child = spawn(mvn, [...args], { env: jdkEnv(jdk), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    // the run's abort (Ctrl-C, SIGTERM): do not wait for the build to finish
    const onAbort = (): void => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    child.once('close', () => signal?.removeEventListener('abort', onAbort));
    child.on('error', (err: NodeJS.ErrnoException) => {
      log?.end();
      if (err.code === 'ENOENT') {
        reject(new VtbenchError(`Maven (${mvn}) not found on PATH`, 'install Maven 3.8+ (apt-get install maven)', EXIT.prerequisite));
      } else reject(err);
    });
    child.on('close', (code) => {
      if (partial) lines.push(partial);
      log?.end();
      resolve({ code: code ?? 1, tail: lines.slice(-TAIL_LINES).join('\n') });
    });
  });
}
