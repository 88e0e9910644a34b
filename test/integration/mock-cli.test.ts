/** `mock/src/cli.ts` spawned as a process: bad input → one line naming the option, non-zero exit; start line; SIGTERM. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function runCli(args: string[], timeoutMs = 15_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'mock/src/cli.ts', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli ${args.join(' ')} did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const CASES: [string[], number, RegExp][] = [
  [['--bogus'], 2, /unknown option '--bogus'/],
  [['--latency-ms', 'abc'], 2, /--latency-ms "abc" is invalid .*fix: give --latency-ms a number/],
  [['--latency-model', 'gauss'], 2, /--latency-model "gauss" is invalid .*one of fixed, uniform, normal, lognormal/],
  [['--latency-model', 'lognormal', '--latency-sigma', '0'], 2, /--latency-sigma "0" is invalid/],
  [['--latency-model', 'uniform', '--latency-min-ms', '900', '--latency-max-ms', '100'], 2, /--latency-min-ms 900 is above --latency-max-ms 100/],
  [['--max-concurrent', '-1'], 2, /--max-concurrent "-1" is invalid/],
  [['--error-status', '404'], 2, /--error-status "404" is invalid .*429, 500, 503/],
  [['--parent-pid', '-3'], 2, /--parent-pid "-3" is invalid .*an integer from 0/],
  [['--parent-pid', '4194304'], 2, /--parent-pid 4194304 is not a running process .*fix: give the pid/],
];

describe('mock CLI', () => {
  test('bad input: one line naming the option and the fix, exit 2', async () => {
    const results = await Promise.all(CASES.map(([args]) => runCli(args)));
    results.forEach((r, i) => {
      const [args, code, pattern] = CASES[i]!;
      assert.equal(r.code, code, args.join(' '));
      assert.equal(r.stdout, '', args.join(' '));
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, `one line for ${args.join(' ')}: ${r.stderr}`);
      assert.match(lines[0]!, pattern);
      assert.match(lines[0]!, /\(fix: /);
    });
  });

  test('--help lists every option with its default', async () => {
    const r = await runCli(['--help']);
    assert.equal(r.code, 0);
    for (const flag of ['--port', '--host', '--latency-model', '--latency-ms', '--seed', '--error-rate', '--hang-rate', '--reset-rate', '--stream-headers', '--max-concurrent', '--keep-alive-timeout-ms', '--log', '--parent-pid']) {
      assert.ok(r.stdout.includes(flag), flag);
    }
    assert.equal((r.stdout.match(/\(default:/g) ?? []).length, 23);
  });

  test('port in use: one line naming --port, exit 4', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCli(['--port', String(port)]);
      assert.equal(r.code, 4);
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1);
      assert.match(lines[0]!, new RegExp(`--port ${port} is in use`));
    } finally {
      blocker.close();
    }
  });

  test('starts with one line (url, config, timeouts), serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'mock/src/cli.ts', '--port', '0', '--latency-ms', '10', '--parent-pid', String(process.pid)], { cwd: ROOT });
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+) /.exec(stdout);
        if (m?.[1] && stdout.endsWith('\n')) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    assert.equal(stdout.trimEnd().split('\n').length, 1);
    assert.match(stdout, /"latencyMs":10/);
    assert.match(stdout, /timeouts=\{"keepAliveTimeoutMs":650000,"headersTimeoutMs":60000,"requestTimeoutMs":0,"connectionTimeoutMs":0,"maxRequestsPerSocket":0\}/);
    const r = await fetch(`${url}/health`);
    assert.equal(r.status, 200);
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    assert.equal(await exit, 0);
  });
});
