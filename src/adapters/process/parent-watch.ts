/**
 * Stop the run when the process that started it goes away.
 *
 * `npx zx run.mjs` runs as `npm exec zx run.mjs` → `sh -c zx run.mjs` → `node …/zx run.mjs` (the
 * harness; zx imports run.mjs in its own process). Seen here with npm 11 on Node 20: a SIGTERM to
 * the npx process kills npm and the `sh` wrapper but never reaches the harness, and a SIGKILL of
 * npx leaves `sh` and the harness running. So the harness watches its launcher chain: its parent,
 * and, while that parent is a `sh -c` wrapper, the wrapper's parent too (npx). When one of them is
 * gone (no /proc entry, a zombie, or a different process under the same pid), or the harness's own
 * parent pid changes (it was re-parented), the watcher fires once, and the caller stops as on SIGINT.
 *
 * The parent of npx itself (e.g. a login shell) is not watched: a run whose npx outlives that shell
 * (e.g. `setsid -f npx zx run.mjs …`) goes on.
 */
import { readFileSync } from 'node:fs';

/** What the watcher needs of a process, from /proc/<pid>/stat and /proc/<pid>/cmdline. */
export interface ProcInfo {
  pid: number;
  ppid: number;
  /** process state letter (R, S, Z, …) */
  state: string;
  /** start time since boot, clock ticks: with the pid, identifies one process */
  startTicks: number;
  /** argv, split at NUL */
  argv: string[];
}

/** /proc/<pid> as a ProcInfo; null when there is no such process. */
export function readProc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces: split after the last ')'
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
    return { pid, ppid: Number(rest[1]), state: rest[0] ?? '?', startTicks: Number(rest[19]), argv };
  } catch {
    return null;
  }
}

/** A `sh -c …` / `bash -c …` / `dash -c …` wrapper, as npm exec and npm run start their commands. */
export function isShellWrapper(p: ProcInfo): boolean {
  const exe = (p.argv[0] ?? '').split('/').pop() ?? '';
  return ['sh', 'bash', 'dash', 'zsh'].includes(exe) && p.argv[1] === '-c';
}

/**
 * The launcher chain of `selfPid`: its parent, then, while the last one is a shell wrapper, that
 * one's parent. Stops at pid 1 and at a process that cannot be read. Pure over `read`.
 */
export function launcherChain(selfPid: number, read: (pid: number) => ProcInfo | null = readProc): ProcInfo[] {
  const chain: ProcInfo[] = [];
  const self = read(selfPid);
  if (!self) return chain;
  let next = self.ppid;
  while (next > 1 && chain.length < 8) {
    const p = read(next);
    if (!p) break;
    chain.push(p);
    if (!isShellWrapper(p)) break;
    next = p.ppid;
  }
  return chain;
}

/** Why a recorded launcher is no longer there, or null when it still is. */
export function goneReason(was: ProcInfo, now: ProcInfo | null): string | null {
  if (!now) return `process ${was.pid} (${was.argv.join(' ').slice(0, 60)}) exited`;
  if (now.startTicks !== was.startTicks) return `process ${was.pid} exited (its pid now belongs to another process)`;
  if (now.state === 'Z') return `process ${was.pid} (${was.argv.join(' ').slice(0, 60)}) exited`;
  return null;
}

/**
 * Watch the launcher chain of this process every `intervalMs`; call `onGone(reason)` once when a
 * launcher exits or this process is re-parented. Returns a stop function. The timer does not keep
 * the process alive.
 */
export function watchLaunchers(onGone: (reason: string) => void, o: { intervalMs?: number; selfPid?: number; read?: (pid: number) => ProcInfo | null } = {}): () => void {
  const read = o.read ?? readProc;
  const selfPid = o.selfPid ?? process.pid;
  return pollGone(launcherChain(selfPid, read), selfPid, read(selfPid)?.ppid ?? null, read, onGone, o.intervalMs ?? 500);
}

/**
 * Watch one process, e.g. the harness that started this one (the mock's `--parent-pid`), every
 * `intervalMs` (default 1000); call `onGone(reason)` once when it has exited (no /proc entry, a
 * zombie, or its pid reused by another process: {@link goneReason}), or, when it was this
 * process's parent at the start, when this process is re-parented (the kernel re-parents the
 * children of a process that exits). A process not running when the watch starts is gone at the
 * first check. Returns a stop function; the timer does not keep the process alive.
 *
 * Without procfs (not Linux) it falls back to `kill(pid, 0)`: only "no such process" is seen.
 */
export function watchProcess(pid: number, onGone: (reason: string) => void, o: { intervalMs?: number; selfPid?: number; read?: (pid: number) => ProcInfo | null } = {}): () => void {
  const selfPid = o.selfPid ?? process.pid;
  const read = o.read ?? (readProc(selfPid) === null ? readByKill : readProc);
  const first = read(pid);
  const intervalMs = o.intervalMs ?? 1000;
  if (first === null || first.state === 'Z') {
    const t = setTimeout(() => onGone(`process ${pid} was not running when the watch started`), 0);
    t.unref();
    return () => clearTimeout(t);
  }
  const self = read(selfPid);
  return pollGone([first], selfPid, self !== null && self.ppid === pid ? pid : null, read, onGone, intervalMs);
}

/**
 * Whether `pid` names a running process (a zombie does not count), by /proc, or by `kill(pid, 0)`
 * without procfs.
 */
export function processRunning(pid: number): boolean {
  const p = readProc(process.pid) === null ? readByKill(pid) : readProc(pid);
  return p !== null && p.state !== 'Z';
}

/** Without procfs: a process that `kill(pid, 0)` finds (EPERM counts: it exists), as a ProcInfo with unknown fields. */
function readByKill(pid: number): ProcInfo | null {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  return { pid, ppid: -1, state: '?', startTicks: 0, argv: [] };
}

/**
 * The poll both watchers share: every `intervalMs`, `onGone` once when this process's parent is no
 * longer `firstPpid` (skipped when null) or a process of `chain` is gone.
 */
function pollGone(chain: ProcInfo[], selfPid: number, firstPpid: number | null, read: (pid: number) => ProcInfo | null, onGone: (reason: string) => void, intervalMs: number): () => void {
  let fired = false;
  const timer = setInterval(() => {
    if (fired) return;
    let reason: string | null = null;
    const ppid = read(selfPid)?.ppid ?? null;
    if (firstPpid !== null && ppid !== null && ppid !== firstPpid) reason = `parent process ${firstPpid} went away (re-parented to ${ppid})`;
    for (const p of chain) reason ??= goneReason(p, read(p.pid));
    if (reason !== null) {
      fired = true;
      clearInterval(timer);
      onGone(reason);
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
