/**
 * Prerequisite checks, run before anything starts: Maven present, ports free, disk space, output
 * folders writable.
 * (The JDK is found by src/adapters/jvm/jdk.ts.) Each failure is one VtbenchError with the fix.
 */
import { createServer } from 'node:net';
import { statfsSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { VtbenchError, EXIT, fsError } from '../../types/errors.ts';
import { findJdk, jdkEnv, SUT_MIN_JDK, type Jdk } from '../jvm/jdk.ts';

/**
 * Resolve true when host:port can be bound (then released), false when it is taken.
 * @throws VtbenchError(EXIT.usage) naming --bind-address when host is not an address of this machine
 */
export function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE' || e.code === 'EACCES') resolve(false);
      else if (e.code === 'EADDRNOTAVAIL') reject(new VtbenchError(`--bind-address: ${host} is not an address of this machine`, 'give an address of one of its interfaces, e.g. --bind-address 127.0.0.1', EXIT.usage));
      else resolve(false);
    });
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/**
 * Checks that each port is free on `host` (the address the SUT and the mock will listen on).
 * @throws VtbenchError(EXIT.portInUse) naming the option when a port is taken;
 *   VtbenchError(EXIT.usage) when `host` is not an address of this machine
 */
export async function checkPorts(ports: { flag: string; port: number }[], host = '127.0.0.1'): Promise<void> {
  for (const p of ports) {
    if (!(await portFree(p.port, host))) {
      throw new VtbenchError(`--${p.flag}: port ${p.port} on ${host} is in use`, `stop what listens there (ss -ltnp 'sport = :${p.port}') or pick another with --${p.flag} <port>`, EXIT.portInUse);
    }
  }
}

/**
 * `mvn -v`, run as the build runs Maven: with the JDK vtbench finds (JAVA_HOME and PATH from
 * `jdkEnv`, src/adapters/jvm/jdk.ts), so a JAVA_HOME of the shell that names no JDK does not fail it. Returns
 * Maven's first line. `env`: the environment to run in (default this process's).
 * @throws VtbenchError(EXIT.prerequisite) "not found on PATH" only when there is no `mvn`; for any
 *   other failure Maven's own words, with the JAVA_HOME it ran with
 */
export function checkMaven(env: NodeJS.ProcessEnv = process.env): string {
  let jdk: Jdk | null;
  try {
    jdk = findJdk(SUT_MIN_JDK, { env });
  } catch {
    jdk = null; // the JDK check says what is missing; Maven then runs with the environment as it is
  }
  const runEnv = jdk ? jdkEnv(jdk, env) : env;
  const clean = (t: string | Buffer | undefined): string => String(t ?? '').replace(/\x1b\[[0-9;]*m/g, '').trim();
  try {
    const out = execFileSync('mvn', ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000, env: runEnv });
    return clean(out).split('\n')[0]?.trim() || 'maven';
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stdout?: string; stderr?: string; status?: number | null; signal?: string | null };
    if (err.code === 'ENOENT') throw new VtbenchError('Maven (mvn) was not found on PATH', 'install Apache Maven 3.8+ (Debian: apt-get install maven)', EXIT.prerequisite);
    const said = [clean(err.stderr), clean(err.stdout)].filter((x) => x !== '').join('\n').split('\n').slice(0, 6).join(' | ') || err.message;
    const how = err.status != null ? `exit ${err.status}` : err.signal ? `signal ${err.signal}` : 'no answer within 60 s';
    throw new VtbenchError(
      `Maven (mvn -v) failed (${how}) with JAVA_HOME=${runEnv['JAVA_HOME'] ?? '(unset)'}: ${said}`,
      jdk ? `Maven ran with the JDK vtbench found (${jdk.home}); run \`JAVA_HOME=${jdk.home} mvn -v\` to see the problem, and check the Maven install` : `set JAVA_HOME to a JDK ${SUT_MIN_JDK} (e.g. under /usr/lib/jvm) and check that \`mvn -v\` runs`,
      EXIT.prerequisite,
    );
  }
}

/** @throws VtbenchError(EXIT.prerequisite) when fewer than minBytes are free under dir */
export function checkDisk(dir: string, minBytes = 1 << 30): void {
  const s = statfsSync(dir);
  const free = Number(s.bavail) * Number(s.bsize);
  if (free < minBytes) {
    throw new VtbenchError(`only ${(free / 2 ** 20).toFixed(0)} MiB free under ${dir}`, `free at least ${(minBytes / 2 ** 20).toFixed(0)} MiB`, EXIT.prerequisite);
  }
}

/**
 * The probe run in a child process: create each missing level of `dir` with a plain (non-recursive)
 * mkdir — a recursive mkdirSync under /proc never returns (DESIGN) —, create and delete a probe
 * file, then remove the levels it created. Prints one JSON line: {ok:true} or the errno error.
 */
const PROBE_SCRIPT = `
const fs = require('node:fs'), path = require('node:path');
const dir = path.resolve(process.argv[1]);
const created = [];
let out = { ok: true };
try {
  const missing = [];
  for (let d = dir; ; d = path.dirname(d)) {
    let st = null;
    try { st = fs.statSync(d); } catch (e) { if (e.code !== 'ENOENT') throw e; }
    if (st) { if (!st.isDirectory()) { const e = new Error('not a folder'); e.code = 'ENOTDIR'; e.syscall = 'mkdir'; e.path = d; throw e; } break; }
    missing.unshift(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of missing) { fs.mkdirSync(d); created.push(d); }
  const probe = path.join(dir, '.vtbench-probe-' + process.pid);
  fs.writeFileSync(probe, 'probe');
  fs.unlinkSync(probe);
} catch (e) {
  out = { ok: false, code: e.code, syscall: e.syscall, path: e.path, message: String(e.message) };
}
for (const d of created.reverse()) { try { fs.rmdirSync(d); } catch {} }
process.stdout.write(JSON.stringify(out));
`;

/**
 * Check that `dir` can be written: in a child process (so a hung or special filesystem cannot hang
 * the harness), create the missing folders one level at a time, write and delete a probe file,
 * then remove whatever folders it created (so a dry run or a refused run leaves nothing behind).
 * @param flag the option the folder came from, named in the message (e.g. `runs-dir`)
 * @param timeoutMs the child is killed after this long and the folder called unusable
 * @throws VtbenchError: EXIT.outputUnusable (not a folder, read-only, no permission, no answer in
 *   time), EXIT.prerequisite (no space), via fsError
 */
export function checkWritable(dir: string, flag: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', PROBE_SCRIPT, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString('utf8'); });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      child.unref();
      reject(new VtbenchError(`--${flag}: ${dir} did not answer a write probe within ${timeoutMs / 1000} s (a hung or special filesystem such as /proc)`, `give --${flag} a folder on a local disk`, EXIT.outputUnusable));
    }, timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', () => {
      clearTimeout(timer);
      let r: { ok: boolean; code?: string; syscall?: string; path?: string; message?: string };
      try {
        r = JSON.parse(out) as typeof r;
      } catch {
        reject(new VtbenchError(`--${flag}: the write probe of ${dir} ended without an answer`, `give --${flag} a folder on a local disk`, EXIT.outputUnusable));
        return;
      }
      if (r.ok) { resolve(); return; }
      const errno = Object.assign(new Error(r.message ?? 'probe failed'), { code: r.code, syscall: r.syscall, path: r.path ?? dir });
      const mapped = fsError(errno, `write --${flag} ${dir} (${r.syscall ?? 'probe'} ${r.path ?? dir})`);
      reject(mapped ?? new VtbenchError(`--${flag}: cannot write ${dir}: ${r.message ?? 'probe failed'}`, `give --${flag} a writable folder`, EXIT.outputUnusable));
    });
  });
}
