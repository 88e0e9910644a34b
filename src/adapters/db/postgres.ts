/**
 * PostgreSQL for the scenarios that query a database (Scenario.usesDb, study 002): either a server
 * the harness starts itself from the machine's binaries, or an existing one named by `--db-url`.
 *
 * Own server (`startPostgres`): a fresh data directory per run in the OS temp folder (never under
 * `runs/`, so nothing of it is committed), `initdb -A trust`, then `postgres` bound to 127.0.0.1 on a
 * free port with `max_connections` above the largest Hikari pool of the plan, its socket in the data
 * directory; its output goes to the run's `logs/postgres.log`. PostgreSQL refuses to run as root
 * (initdb and postgres check the effective uid): as root, the data directory is given to the
 * `postgres` user and the binaries are spawned with that uid and gid (Node's `spawn` `uid`/`gid`,
 * which also drops supplementary groups) — the same as `runuser -u postgres --` (DESIGN.md "Facts
 * for the next studies") but the harness keeps the server's own pid, so Ctrl-C, an error and
 * `--resume` (src/adapters/process/children.ts) stop exactly that process. `stop()` sends SIGINT (PostgreSQL's
 * "fast" shutdown: clients are disconnected, no wait for them), waits, SIGKILLs after a timeout,
 * then removes the data directory. A harness killed with SIGKILL cannot do that, and PostgreSQL cannot
 * be told to watch a parent pid: a tiny watchdog (`startPgWatchdog`) does it then.
 *
 * Seeding (`seedOrders`, both cases): the study's `orders` table of the Java ↔ harness contract,
 * `CREATE TABLE orders (id integer PRIMARY KEY, user_id integer NOT NULL, status text NOT NULL)`,
 * ids 1..10,000, `user_id = id % 1000 + 1`, `status = 'PAID'`; created if absent, then checked.
 * SQL goes through `psql` from the same binaries (no npm client needed).
 */
import { WATCHDOG_SCRIPT, startWatchdog, type Watchdog } from '../process/watchdog.ts';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MalformedAnswerError } from '../store/answers.ts';
import { VtbenchError, EXIT } from '../../types/errors.ts';
import type { DbInfo } from '../../types/run.ts';

/** The binaries the harness needs: to start its own server, or only the client for `--db-url`. */
export const PG_BINARIES = { server: ['initdb', 'postgres', 'psql'], client: ['psql'] } as const;

/** The Debian package that holds them. */
export const PG_PACKAGE = 'postgresql';

/** Rows of the seeded `orders` table (the contract's ids 1..10,000). */
export const ORDERS_ROWS = 10_000;

/** Connections above the largest Hikari pool that `max_connections` leaves for psql and a restarted SUT. */
export const MAX_CONNECTIONS_MARGIN = 20;

/** Where the binaries were found, and their major version. */
export interface PgBinaries {
  dir: string;
  /** e.g. `15.14` from `postgres --version` */
  version: string;
}

/**
 * Find the binaries in one folder (`server`: `initdb`, `postgres`, `psql`; `client`: `psql`):
 * `/usr/lib/postgresql/<major>/bin` first (highest major; Debian keeps them off PATH, and its
 * `/usr/bin/psql` is a wrapper script), then each PATH entry.
 * @param env the environment whose PATH is searched
 * @param libRoot the Debian root, replaceable for tests
 * @throws VtbenchError(EXIT.prerequisite) naming the Debian package when none holds them
 */
export function findPgBinaries(env: NodeJS.ProcessEnv = process.env, libRoot = '/usr/lib/postgresql', need: keyof typeof PG_BINARIES = 'server'): PgBinaries {
  const dirs: string[] = [];
  let majors: string[] = [];
  try {
    majors = readdirSync(libRoot).filter((d) => /^\d+(\.\d+)?$/.test(d)).sort((a, b) => Number(b) - Number(a));
  } catch {
    /* no Debian root */
  }
  for (const m of majors) dirs.push(join(libRoot, m, 'bin'));
  dirs.push(...(env['PATH'] ?? '').split(delimiter).filter((d) => d.length > 0));
  const names = PG_BINARIES[need];
  for (const dir of dirs) {
    if (!names.every((b) => isFile(join(dir, b)))) continue;
    const out = execFileSync(join(dir, need === 'client' ? 'psql' : 'postgres'), ['--version'], { encoding: 'utf8', timeout: 10_000 });
    const version = /(\d+(?:\.\d+)+)/.exec(out)?.[1] ?? out.trim();
    return { dir, version };
  }
  throw new VtbenchError(
    `PostgreSQL ${need} binaries (${names.join(', ')}) were not found under ${libRoot}/*/bin or on PATH; this study's database scenarios need them`,
    `install the Debian package ${PG_PACKAGE} (apt-get install -y ${PG_PACKAGE}), or give --db-url of an existing PostgreSQL`,
    EXIT.prerequisite,
  );
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** A PostgreSQL the scenarios use (own or `--db-url`), as the SUT and the manifest see it. */
export interface DbTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  /** may be empty (trust authentication) */
  password: string;
}

/** `jdbc:postgresql://host:port/db` (no credentials: the SUT gets user and password apart). */
export function jdbcUrl(t: Pick<DbTarget, 'host' | 'port' | 'database'>): string {
  const host = t.host.includes(':') ? `[${t.host}]` : t.host;
  return `jdbc:postgresql://${host}:${t.port}/${t.database}`;
}

/**
 * Parse `--db-url`: a JDBC URL (`jdbc:postgresql://host[:port]/db?user=u&password=p`) or a
 * libpq URL (`postgres[ql]://[user[:password]@]host[:port]/db`). Port defaults to 5432, user to
 * `postgres`, password to empty.
 * @throws VtbenchError(EXIT.usage) naming --db-url and the accepted forms
 */
export function parseDbUrl(raw: string): DbTarget {
  const bad = () => new VtbenchError(`--db-url: '${redactUrl(raw)}' is not a PostgreSQL URL`, 'give jdbc:postgresql://host:port/db?user=u&password=p or postgresql://user:password@host:port/db', EXIT.usage);
  const s = raw.trim();
  const m = /^(?:jdbc:)?(postgres(?:ql)?):\/\//.exec(s);
  if (!m) throw bad();
  let u: URL;
  try {
    u = new URL(s.replace(/^jdbc:/, '').replace(/^postgres(ql)?:/, 'http:'));
  } catch {
    throw bad();
  }
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (u.hostname === '' || database === '') throw bad();
  const user = decodeURIComponent(u.username) || u.searchParams.get('user') || 'postgres';
  const password = decodeURIComponent(u.password) || u.searchParams.get('password') || '';
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port === '' ? 5432 : Number(u.port), database, user, password };
}

/** A URL with any password replaced by `***` (for messages and the manifest). */
export function redactUrl(raw: string): string {
  return raw.replace(/(:\/\/[^:/@]+:)[^@]*@/, '$1***@').replace(/([?&]password=)[^&]*/i, '$1***');
}

/** A running PostgreSQL of the run. */
export interface DbHandle {
  target: DbTarget;
  info: DbInfo;
  /** own server: its postmaster pid; external: null */
  pid: number | null;
  /** substring of the own server's command line (its data directory), for the child registry */
  marker: string;
  /** own server: the run's `logs/postgres.log`; external: '' (its log is not ours) */
  logFile: string;
  /**
   * One bounded liveness probe for the run's watch (src/adapters/process/liveness.ts): a TCP connection to
   * the server's host:port (`tcpProbe`), cheap enough to repeat every second during a cell (no
   * psql spawn, no query on the pool under test). Resolves true when it connected within
   * `timeoutMs`; never rejects.
   */
  probe(timeoutMs: number): Promise<boolean>;
  /** own server: stop it and remove its data directory; external: nothing */
  stop(): Promise<void>;
}

/**
 * Whether a TCP connection to `host:port` opens within `timeoutMs` (then closed at once, nothing
 * sent). PostgreSQL's postmaster accepts it only while it runs; a killed server refuses at once.
 * Never rejects.
 */
export function tcpProbe(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect({ host, port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      sock.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

/** Options of an own server. */
export interface StartPostgresOptions {
  bin: PgBinaries;
  /** the largest Hikari pool of the plan; max_connections = this + MAX_CONNECTIONS_MARGIN */
  maxPool: number;
  /** file the server's output is appended to */
  logFile: string;
  /** database created for the run */
  database?: string;
  /** how long to wait for the server to accept connections, ms */
  readyTimeoutMs?: number;
  /** run as this uid/gid (default: the `postgres` user when the harness is root, else the harness's own) */
  runAs?: { uid: number; gid: number } | null;
  /** false: leave the database empty (a target service creates its own schema); default true: seed `orders` */
  seed?: boolean;
}

/** The superuser initdb creates; trust authentication, so no password. */
export const PG_SUPERUSER = 'vtbench';

/** The uid/gid of the `postgres` user, when the harness runs as root (PostgreSQL refuses root); else null. */
export function unprivilegedUser(): { uid: number; gid: number } | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new VtbenchError('the harness runs as root and there is no `postgres` user to run PostgreSQL as (it refuses to run as root)', `install the Debian package ${PG_PACKAGE} (it creates the user), or run the harness as an unprivileged user`, EXIT.prerequisite);
  }
}

/** A free TCP port on 127.0.0.1 (bound and released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen({ port: 0, host: '127.0.0.1' }, () => {
      const a = srv.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Run a binary to completion (optionally as another user); rejects with its output on failure. */
function run(cmd: string, args: string[], o: { runAs?: { uid: number; gid: number } | null; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: o.env ?? process.env,
      ...(o.runAs ? { uid: o.runAs.uid, gid: o.runAs.gid } : {}),
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString('utf8'); });
    child.stderr.on('data', (d: Buffer) => { out += d.toString('utf8'); });
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 120_000);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} ${args.join(' ')} ended with ${code ?? signal}: ${out.trim().split('\n').slice(-5).join(' | ')}`));
    });
    child.stdin.on('error', () => { /* it exited before reading its input: its exit code says why */ });
    child.stdin.end(o.input ?? '');
  });
}

/** psql against `t`, one SQL text, unaligned tuples-only output; rejects with psql's message. */
export function psql(bin: PgBinaries, t: DbTarget, sql: string, timeoutMs = 60_000): Promise<string> {
  return run(join(bin.dir, 'psql'), ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', t.host, '-p', String(t.port), '-U', t.user, '-d', t.database, '-c', sql], {
    env: { ...process.env, PGPASSWORD: t.password, PGCONNECT_TIMEOUT: '10' },
    timeoutMs,
  }).then((s) => s.trim());
}

/** The contract's `orders` table: created if absent, rows 1..10,000 inserted where missing. */
export const SEED_SQL = [
  'CREATE TABLE IF NOT EXISTS orders (id integer PRIMARY KEY, user_id integer NOT NULL, status text NOT NULL);',
  `INSERT INTO orders (id, user_id, status) SELECT g, g % 1000 + 1, 'PAID' FROM generate_series(1, ${ORDERS_ROWS}) g ON CONFLICT (id) DO NOTHING;`,
].join(' ');

/** Counts the rows that match the contract (id 1..10,000, user_id = id % 1000 + 1, status PAID). */
export const CHECK_SQL = `SELECT count(*) FROM orders WHERE id BETWEEN 1 AND ${ORDERS_ROWS} AND user_id = id % 1000 + 1 AND status = 'PAID';`;

/**
 * Create and check the `orders` table on `t`. Returns the matching row count.
 * @throws VtbenchError(EXIT.prerequisite) when the table exists with other rows (e.g. a changed user_id)
 */
export async function seedOrders(bin: PgBinaries, t: DbTarget): Promise<number> {
  await psql(bin, t, SEED_SQL);
  const answer = await psql(bin, t, CHECK_SQL);
  if (!/^\d+$/.test(answer)) throw new MalformedAnswerError({ component: 'PostgreSQL', url: jdbcUrl(t), endpoint: 'the orders check (SELECT count(*) …)' }, [`'${answer.slice(0, 80)}' is not a row count`], true);
  const n = Number(answer);
  if (n !== ORDERS_ROWS) {
    throw new VtbenchError(
      `the orders table of ${jdbcUrl(t)} has ${n} of the ${ORDERS_ROWS} rows the scenarios expect (id 1..${ORDERS_ROWS}, user_id = id % 1000 + 1, status 'PAID')`,
      'drop the table there (the harness re-creates it), or leave --db-url out to let the harness start its own PostgreSQL', EXIT.prerequisite);
  }
  return n;
}

/** The settings the manifest records (`SHOW <name>`). */
export const RECORDED_SETTINGS = ['max_connections', 'shared_buffers', 'fsync', 'synchronous_commit', 'listen_addresses'] as const;

/** The server's version and settings; a malformed answer is MalformedAnswerError (exit 6). */
export async function describe(bin: PgBinaries, t: DbTarget): Promise<{ serverVersion: string; settings: Record<string, string> }> {
  const serverVersion = await psql(bin, t, 'SHOW server_version;');
  if (!/^\d+(\.\d+)*/.test(serverVersion)) throw new MalformedAnswerError({ component: 'PostgreSQL', url: jdbcUrl(t), endpoint: 'SHOW server_version' }, [`'${serverVersion.slice(0, 80)}' is not a version`], true);
  const settings: Record<string, string> = {};
  for (const k of RECORDED_SETTINGS) {
    settings[k] = await psql(bin, t, `SHOW ${k};`);
    if (settings[k] === '' || settings[k]!.includes('\n')) throw new MalformedAnswerError({ component: 'PostgreSQL', url: jdbcUrl(t), endpoint: `SHOW ${k}` }, [`${JSON.stringify(settings[k]!.slice(0, 80))} is not one setting's value`], true);
  }
  return { serverVersion, settings };
}

/** The last lines of a log file, for an error message. */
function tail(file: string, n = 8): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-n).join(' | ');
  } catch {
    return '(no log)';
  }
}

/**
 * Start an own PostgreSQL for the run (see the module comment), create `database`, seed `orders`.
 * @throws VtbenchError(EXIT.notReady) when initdb fails or the server does not accept connections
 *   in time (the log's tail in the message); the data directory is removed then
 */
export async function startPostgres(o: StartPostgresOptions): Promise<DbHandle> {
  const runAs = o.runAs === undefined ? unprivilegedUser() : o.runAs;
  const database = o.database ?? 'vtbench';
  const root = mkdtempSync(join(tmpdir(), 'vtbench-pg-'));
  const data = join(root, 'data');
  if (runAs) chownSync(root, runAs.uid, runAs.gid);
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  const maxConnections = o.maxPool + MAX_CONNECTIONS_MARGIN;
  let child: ChildProcess | null = null;
  let watchdog: PgWatchdog | null = null;
  try {
    await run(join(o.bin.dir, 'initdb'), ['-D', data, '-A', 'trust', '-U', PG_SUPERUSER, '-E', 'UTF8', '--no-sync', '--no-instructions'], { runAs, timeoutMs: 120_000 });
    const port = await freePort();
    const fd = openSync(o.logFile, 'a');
    try {
      child = spawn(join(o.bin.dir, 'postgres'), ['-D', data, '-p', String(port), '-k', data, '-c', 'listen_addresses=127.0.0.1', '-c', `max_connections=${maxConnections}`], {
        stdio: ['ignore', fd, fd],
        ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
      });
    } finally {
      closeSync(fd);
    }
    const pid = child.pid;
    if (pid === undefined) throw new Error('postgres did not start');
    watchdog = startPgWatchdog(pid, data, root);
    let exited: string | null = null;
    child.once('exit', (code, signal) => { exited = `exit ${code ?? signal}`; });
    const admin: DbTarget = { host: '127.0.0.1', port, database: 'postgres', user: PG_SUPERUSER, password: '' };
    const deadline = Date.now() + (o.readyTimeoutMs ?? 30_000);
    for (;;) {
      if (exited) throw new VtbenchError(`PostgreSQL (${o.bin.dir}/postgres) ended at start (${exited}): ${tail(o.logFile)}`, `see ${o.logFile}`, EXIT.notReady);
      try {
        await psql(o.bin, admin, 'SELECT 1;', 5_000);
        break;
      } catch (e) {
        if (Date.now() > deadline) throw new VtbenchError(`PostgreSQL on 127.0.0.1:${port} did not accept connections within ${(o.readyTimeoutMs ?? 30_000) / 1000} s: ${(e as Error).message}`, `see ${o.logFile}`, EXIT.notReady);
        await sleep(200);
      }
    }
    await psql(o.bin, admin, `CREATE DATABASE ${database};`);
    const target: DbTarget = { ...admin, database };
    const ordersRows = o.seed === false ? 0 : await seedOrders(o.bin, target);
    const d = await describe(o.bin, target);
    const proc = child;
    const guard = watchdog;
    let stopped: Promise<void> | null = null;
    return {
      target,
      pid,
      marker: data,
      logFile: o.logFile,
      probe: (timeoutMs) => tcpProbe(target.host, target.port, timeoutMs),
      info: { kind: 'own', url: jdbcUrl(target), user: PG_SUPERUSER, serverVersion: d.serverVersion, settings: d.settings, binDir: o.bin.dir, ordersRows },
      stop: () => (stopped ??= (guard.disarm(), stopChild(proc, () => exited !== null).then(cleanup))),
    };
  } catch (e) {
    watchdog?.disarm();
    if (child && child.exitCode === null) await stopChild(child, () => child!.exitCode !== null || child!.signalCode !== null);
    cleanup();
    if (e instanceof VtbenchError) throw e;
    throw new VtbenchError(`PostgreSQL could not be set up: ${(e as Error).message}`, `see ${o.logFile}`, EXIT.notReady);
  }
}

/**
 * The watchdog's script (`sh -c <script> sh <pid> <marker> <root>`): src/adapters/process/watchdog.ts,
 * with its defaults SIGINT (PostgreSQL's fast shutdown) and 15 s before SIGKILL; `root`, the data
 * directory's parent, is removed once the server is gone.
 */
export const PG_WATCHDOG_SCRIPT = WATCHDOG_SCRIPT;

/** A running watchdog of an own PostgreSQL. */
export type PgWatchdog = Watchdog;

/**
 * Start the watchdog that stops an own PostgreSQL (`pid`, whose command line contains `marker`)
 * and removes `root` when the harness dies without stopping it (src/adapters/process/watchdog.ts).
 */
export function startPgWatchdog(pid: number, marker: string, root: string): PgWatchdog {
  return startWatchdog(pid, { name: 'vtbench-pg-watchdog', marker, signal: 'INT', graceS: 15, removeDir: root });
}

/** SIGINT (fast shutdown), up to 15 s, then SIGKILL. */
async function stopChild(child: ChildProcess, gone: () => boolean): Promise<void> {
  if (gone()) return;
  const done = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    child.kill('SIGINT');
  } catch {
    return;
  }
  const ok = await Promise.race([done.then(() => true), sleep(15_000).then(() => false)]);
  if (!ok) {
    child.kill('SIGKILL');
    await Promise.race([done, sleep(5_000)]);
  }
}

/**
 * Use an existing PostgreSQL (`--db-url`): check it answers, seed and check `orders`; never stopped.
 * `bin` provides psql.
 * @throws VtbenchError(EXIT.notReady) when it does not answer; EXIT.prerequisite for a wrong table
 */
export async function useExternalPostgres(bin: PgBinaries, rawUrl: string): Promise<DbHandle> {
  const target = parseDbUrl(rawUrl);
  try {
    await psql(bin, target, 'SELECT 1;', 15_000);
  } catch (e) {
    throw new VtbenchError(`--db-url: PostgreSQL at ${jdbcUrl(target)} does not answer: ${(e as Error).message}`, 'check the URL, the user and password, and that the server listens there', EXIT.notReady);
  }
  const ordersRows = await seedOrders(bin, target);
  const d = await describe(bin, target);
  return {
    target,
    pid: null,
    marker: '',
    logFile: '',
    probe: (timeoutMs) => tcpProbe(target.host, target.port, timeoutMs),
    info: { kind: 'external', url: jdbcUrl(target), user: target.user, serverVersion: d.serverVersion, settings: d.settings, binDir: null, ordersRows },
    stop: async () => {},
  };
}

/** The SUT properties of the contract for a database target (`bench.db.*`). */
export function dbSutProperties(t: DbTarget): Record<string, string> {
  return { 'bench.db.url': jdbcUrl(t), 'bench.db.user': t.user, 'bench.db.password': t.password };
}

/** Whether a folder exists (tests check the data directory is gone after stop). */
export function dirExists(p: string): boolean {
  return existsSync(p);
}
