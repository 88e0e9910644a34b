/** Start the mock LLM (mock/src/cli.ts) in a child process, with the run's Node flags (MOCK_NODE_FLAGS) and `--parent-pid` of this process (so it stops when this process dies without stopping it), and wait until /health answers. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { MOCK_NODE_FLAGS } from '../../src/adapters/process/node-flags.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface MockChild {
  url: string;
  port: number;
  pid: number;
  stats(): Promise<unknown>;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (bound to port 0, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export async function startMockChild(args: string[], readyTimeoutMs = 20_000): Promise<MockChild> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...MOCK_NODE_FLAGS, '--import', 'tsx', 'mock/src/cli.ts', '--port', String(port), '--parent-pid', String(process.pid), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (b: Buffer) => (output = (output + b.toString()).slice(-4000)));
  child.stderr?.on('data', (b: Buffer) => (output = (output + b.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mock child exited with ${child.exitCode} before it was ready:\n${output}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`mock child not ready after ${readyTimeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    pid: child.pid ?? -1,
    stats: async () => (await fetch(`${url}/stats`)).json(),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** The soft limit of open files of this process (inherited by its children). */
export async function openFileLimit(): Promise<number> {
  const { execFileSync } = await import('node:child_process');
  const out = execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
  return out === 'unlimited' ? Infinity : Number(out);
}
