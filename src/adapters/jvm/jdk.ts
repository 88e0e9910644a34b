/**
 * Finding a JDK for the SUT. The default `java` on these machines is often 17; virtual threads need
 * 21+, and the SUT jar is compiled for release {@link SUT_MIN_JDK}. Search order: JAVA_HOME, then
 * every directory under /usr/lib/jvm (highest version first). A JDK is a directory with `bin/java`
 * and a `release` file whose JAVA_VERSION gives the version.
 */
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, VtbenchError } from '../../types/errors.ts';

/** The SUT is built with `<maven.compiler.release>25`: running it needs this major version. */
export const SUT_MIN_JDK = 25;

export interface Jdk {
  home: string;
  major: number;
  /** JAVA_VERSION from the release file, e.g. "25.0.3" */
  version: string;
  /** IMPLEMENTOR from the release file, e.g. "Eclipse Adoptium"; "unknown" if absent */
  vendor: string;
}

export interface JdkSearch {
  /** defaults to process.env */
  env?: Record<string, string | undefined>;
  /** directories whose children are JDK homes; defaults to ['/usr/lib/jvm'] */
  roots?: readonly string[];
}

/** Parses a `release` file (KEY="value" lines). */
export function parseReleaseFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Z_][A-Z0-9_]*)=(?:"(.*)"|(.*))$/.exec(line.trim());
    if (m && m[1]) out[m[1]] = m[2] ?? m[3] ?? '';
  }
  return out;
}

/** "25.0.3" -> 25, "21" -> 21, "1.8.0_392" -> 8; null if unparseable. */
export function majorOf(version: string): number | null {
  const m = /^(\d+)(?:\.(\d+))?/.exec(version.trim());
  if (!m || !m[1]) return null;
  const first = Number(m[1]);
  if (first === 1 && m[2]) return Number(m[2]);
  return first;
}

/** Reads one candidate home; a string says why it is not a usable JDK. */
export function inspectJdk(home: string): Jdk | string {
  const releasePath = join(home, 'release');
  if (!existsSync(home)) return 'does not exist';
  if (!existsSync(releasePath)) return 'no release file';
  const release = parseReleaseFile(readFileSync(releasePath, 'utf8'));
  const version = release['JAVA_VERSION'];
  if (!version) return 'release file has no JAVA_VERSION';
  const major = majorOf(version);
  if (major === null) return `unparseable JAVA_VERSION "${version}"`;
  if (!existsSync(join(home, 'bin', 'java'))) return `${version}, but no bin/java`;
  return { home, major, version, vendor: release['IMPLEMENTOR'] ?? 'unknown' };
}

function childDirs(root: string): string[] {
  try {
    return readdirSync(root)
      .map((name) => join(root, name))
      .filter((p) => {
        try {
          return statSync(p).isDirectory();
        } catch {
          return false;
        }
      })
      .sort();
  } catch {
    return [];
  }
}

/**
 * The first JDK with major >= minMajor: JAVA_HOME if it qualifies, else the newest under the roots.
 * @throws VtbenchError (exit code {@link EXIT.prerequisite}) naming every place searched and why each failed
 */
export function findJdk(minMajor = 21, search: JdkSearch = {}): Jdk {
  const env = search.env ?? process.env;
  const roots = search.roots ?? ['/usr/lib/jvm'];
  const tried: string[] = [];

  const javaHome = env['JAVA_HOME'];
  if (javaHome) {
    const r = inspectJdk(javaHome);
    if (typeof r !== 'string' && r.major >= minMajor) return r;
    tried.push(`JAVA_HOME=${javaHome} (${typeof r === 'string' ? r : `${r.version}, too old`})`);
  } else {
    tried.push('JAVA_HOME (not set)');
  }

  const seen = new Set<string>();
  const found: Jdk[] = [];
  for (const root of roots) {
    const dirs = childDirs(root);
    if (dirs.length === 0) tried.push(`${root}/* (no directories)`);
    for (const dir of dirs) {
      let real = dir;
      try {
        real = realpathSync(dir);
      } catch {
        /* keep dir */
      }
      if (seen.has(real)) continue;
      seen.add(real);
      const r = inspectJdk(dir);
      if (typeof r === 'string') tried.push(`${dir} (${r})`);
      else if (r.major < minMajor) tried.push(`${dir} (${r.version}, too old)`);
      else found.push(r);
    }
  }
  found.sort((a, b) => b.major - a.major || a.home.localeCompare(b.home));
  const best = found[0];
  if (best) return best;
  throw new VtbenchError(
    `no JDK >= ${minMajor} found; searched: ${tried.join('; ')}`,
    `install a JDK ${minMajor}+ (e.g. Temurin ${Math.max(minMajor, SUT_MIN_JDK)}) under /usr/lib/jvm or set JAVA_HOME to one`,
    EXIT.prerequisite,
  );
}

/**
 * Set (to `1`) by the unit and integration test tiers (test/support/tier.mjs): in them nothing may
 * build the SUT or start a JVM (docs/architecture.md, "Tests in tiers").
 */
export const NO_JVM_ENV = 'VTBENCH_NO_JVM';

/**
 * Refuses `what` (a SUT build or a JVM start) when {@link NO_JVM_ENV} is set in `env`.
 * @throws VtbenchError (exit {@link EXIT.prerequisite}) saying that the test tiers start no JVM
 */
export function refuseJvmInTestTiers(what: string, env: Record<string, string | undefined> = process.env): void {
  if (env[NO_JVM_ENV] === undefined || env[NO_JVM_ENV] === '' || env[NO_JVM_ENV] === '0') return;
  throw new VtbenchError(
    `${what} refused: ${NO_JVM_ENV}=${env[NO_JVM_ENV]} (set by test/support/tier.mjs: the unit and integration tiers start no Maven and no JVM)`,
    'a test that needs the real SUT belongs in test/e2e/ (npm run test:e2e)',
    EXIT.prerequisite,
  );
}

/** Environment for child processes (Maven, the SUT) that must use this JDK. */
export function jdkEnv(jdk: Jdk, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, JAVA_HOME: jdk.home, PATH: `${join(jdk.home, 'bin')}:${base['PATH'] ?? ''}` };
}

/**
 * The SUT is compiled with `--enable-preview` (sut/pom.xml: JDK 25's StructuredTaskScope, JEP 505, for
 * study 002's `mixed-structured`). Class files with preview features load only on the JDK major they were
 * compiled for, and javac accepts `--enable-preview` only for its own release: so JDK 25 exactly.
 */
export const SUT_MAX_JDK = 25;

/** @throws VtbenchError when the JDK is too old to run the SUT jar, or newer than the preview features it was compiled with allow */
export function requireSutJdk(jdk: Jdk): void {
  if (jdk.major > SUT_MAX_JDK) {
    throw new VtbenchError(
      `the SUT uses JDK ${SUT_MAX_JDK} preview APIs (--enable-preview: StructuredTaskScope) and builds and runs on JDK ${SUT_MAX_JDK} only, but the JDK found is ${jdk.version} (${jdk.home})`,
      `set JAVA_HOME to a JDK ${SUT_MAX_JDK} (e.g. Temurin ${SUT_MAX_JDK} under /usr/lib/jvm)`,
      EXIT.prerequisite,
    );
  }
  if (jdk.major < SUT_MIN_JDK) {
    throw new VtbenchError(
      `the SUT is compiled for Java ${SUT_MIN_JDK} but the JDK found is ${jdk.version} (${jdk.home})`,
      `install a JDK ${SUT_MIN_JDK}+ under /usr/lib/jvm or set JAVA_HOME to one`,
      EXIT.prerequisite,
    );
  }
}

/**
 * The JDK of exactly `major` (JAVA_HOME first, then the roots, newest update first), or null when
 * the host has none. Used by profiles that exist to test one JDK (Profile.requiresJdkMajor).
 */
export function findJdkOfMajor(major: number, search: JdkSearch = {}): Jdk | null {
  const env = search.env ?? process.env;
  const roots = search.roots ?? ['/usr/lib/jvm'];
  const homes = [...(env['JAVA_HOME'] ? [env['JAVA_HOME']] : []), ...roots.flatMap(childDirs)];
  const found = homes.map(inspectJdk).filter((r): r is Jdk => typeof r !== 'string' && r.major === major);
  return found[0] ?? null;
}

/**
 * Stops a run of a profile that needs one JDK major (Profile.requiresJdkMajor) before anything starts.
 * @throws VtbenchError (exit {@link EXIT.prerequisite}) "not tested here: no JDK <major> on this host" when
 *   none is found; when one is found but the SUT jar needs a newer release ({@link SUT_MIN_JDK}), says so
 *   (the SUT is not built for release <major> in this version: issue 16)
 */
export function requireProfileJdk(profile: { name: string; requiresJdkMajor?: number }, search: JdkSearch = {}): void {
  const major = profile.requiresJdkMajor;
  if (major === undefined) return;
  const jdk = findJdkOfMajor(major, search);
  if (jdk === null) {
    // one line and nothing else: the message is the whole answer (no hint line)
    throw new VtbenchError(`not tested here: no JDK ${major} on this host`, '', EXIT.prerequisite);
  }
  if (major < SUT_MIN_JDK) {
    throw new VtbenchError(`not tested here: JDK ${jdk.version} found at ${jdk.home}, but the SUT is compiled for release ${SUT_MIN_JDK}`, `profile ${profile.name} needs a SUT built for release ${major} that reads the JDK-24-only MXBeans reflectively; this version does not build it`, EXIT.prerequisite);
  }
}
