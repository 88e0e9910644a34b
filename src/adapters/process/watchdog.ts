/**
 * A watchdog that stops a process vtbench started when the harness dies without stopping it (SIGKILL,
 * a crash), for processes that cannot be told to watch a parent pid themselves: an own PostgreSQL,
 * and a user's jar run as a target (issue 32), which vtbench cannot add a `--bench.parent-pid` to.
 *
 * A `/bin/sh` in its own process group (a terminal's Ctrl-C reaches the harness, which stops things in
 * order) runs WATCHDOG_SCRIPT: `read` blocks on stdin, a pipe whose write end only the harness holds
 * (Node opens its fds close-on-exec, so no other child inherits it). A line `keep` (the harness stops
 * the process itself) ends the watchdog. End of file means the harness is gone, however it died: then,
 * if `/proc/<pid>/cmdline` still contains `marker` (a string only this process's command line holds:
 * a reused pid is not touched, as `killIfOurs` in children.ts; the moment between that check and the
 * signal is a window sh cannot close), the signal, up to the grace period for it to go, SIGKILL, and
 * `removeDir` is removed when given. Linux only (`/proc`, and `sleep 0.1`, which POSIX sleep need not
 * accept).
 */
import { spawn } from 'node:child_process';

/** `sh -c <script> <name> <pid> <marker> [<dir to remove>|''] [<signal>=INT] [<grace, tenths of s>=150]` */
export const WATCHDOG_SCRIPT = [
  'read -r cmd',
  '[ "$cmd" = keep ] && exit 0',
  'ours() { [ -r "/proc/$1/cmdline" ] && tr "\\000" " " < "/proc/$1/cmdline" | grep -qF -- "$2"; }',
  'sig=${4:-INT}; grace=${5:-150}',
  'if ours "$1" "$2"; then',
  '  kill -"$sig" "$1" 2>/dev/null',
  '  i=0; while ours "$1" "$2" && [ $i -lt "$grace" ]; do sleep 0.1; i=$((i + 1)); done',
  '  ours "$1" "$2" && kill -KILL "$1" 2>/dev/null',
  'fi',
  '[ -n "$3" ] && rm -rf -- "$3"',
  'exit 0',
].join('\n');

/** A running watchdog. */
export interface Watchdog {
  pid: number;
  /** tell it the harness stops the process itself; it exits at once without touching anything */
  disarm(): void;
}

/**
 * Start a watchdog of `pid` (see the file comment). It does not keep the harness alive.
 * @param o.name its argv[0], seen in `ps` (e.g. `vtbench-target-watchdog`)
 * @param o.marker a string of the watched process's command line (its data directory, its jar path)
 * @param o.signal the first signal, default INT; o.graceS seconds before SIGKILL, default 15
 * @param o.removeDir a folder to remove once the process is gone, default none
 */
export function startWatchdog(pid: number, o: { name: string; marker: string; signal?: 'INT' | 'TERM'; graceS?: number; removeDir?: string }): Watchdog {
  const args = ['-c', WATCHDOG_SCRIPT, o.name, String(pid), o.marker, o.removeDir ?? '', o.signal ?? 'INT', String(Math.round((o.graceS ?? 15) * 10))];
  const child = spawn('/bin/sh', args, { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  child.on('error', () => { /* no /bin/sh: nothing watches; the caller's own stop still does */ });
  child.stdin!.on('error', () => { /* it exited first */ });
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  let disarmed = false;
  return {
    pid: child.pid ?? -1,
    disarm: () => {
      if (disarmed) return;
      disarmed = true;
      child.stdin!.end('keep\n');
    },
  };
}
