/**
 * Issue 34, defect 9: a disk that fills up mid-run left `lock.json` behind (and the children's
 * `pids.json` write, failing in the run's cleanup, replaced the run's own error). The disk here is
 * really full: a tmpfs with few inodes (so the 1 GiB free-space check passes), filled at the second
 * cell, so every later write of the run (cell, pids.json, summary, manifest) fails with ENOSPC.
 * Needs root (mount); skipped otherwise.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { main, type Io, type MainDeps } from '../../src/cli/main.ts';
import { EXIT } from '../../src/types/errors.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import type { CellResult, CompactRequests } from '../../src/types/run.ts';
import type { RunDeps } from '../../src/pipeline/run.ts';
import type { SutInfo } from '../../src/types/sut-api.ts';
import type { Variant } from '../../src/types/study.ts';
import { idleChild } from '../fixtures/idle-child.ts';
import { freePort } from '../fixtures/ports.ts';

const LATENCY_MS = 50;

function sutInfo(v: Variant): SutInfo {
  const e = v.executor;
  return {
    jdkVendor: 'none (fake SUT of a test)', jdkVersion: '0', springBootVersion: '0', springAiVersion: '0', jvmFlags: [], availableProcessors: 1,
    executor: { variant: v.id, kind: e.kind, threads: e.kind === 'platform-pool' ? e.threads : null, queueCapacity: e.kind === 'platform-pool' ? e.queueCapacity : null, threadNamePrefix: v.threadNamePrefix, pinning: 'none' },
    scenarios: ['llm', 'sleep'], vtSchedulerParallelism: null,
    tomcat: { maxThreads: 1, maxConnections: 1, maxKeepAliveRequests: -1, keepAliveTimeoutMs: 1, asyncRequestTimeoutMs: 1 },
    okhttp: { maxIdleConnections: 1, keepAliveDurationMs: 1, dispatcherMaxRequests: null }, mockBaseUrl: 'http://127.0.0.1:9/v1', samplerIntervalMs: 250, pinnedThresholdMs: 20,
  };
}

/** Create empty files under `dir` until the filesystem has no inode left (ENOSPC). */
function fillInodes(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(dir, String(i)), '');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOSPC') return;
      throw e;
    }
  }
}

test('a disk that fills up mid-run: exit 3 with the run\'s own error, no lock.json left, the children stopped', { timeout: 120_000 }, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-fulllock-'));
  const mnt = join(tmp, 'disk');
  mkdirSync(mnt);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2g,nr_inodes=120', 'tmpfs', mnt], { stdio: 'pipe' });
  } catch (e) {
    t.skip(`cannot mount a tmpfs here (${String((e as Error).message).split('\n')[0]})`);
    rmSync(tmp, { recursive: true, force: true });
    return;
  }
  const server = http.createServer((req, res) => {
    req.resume();
    setTimeout(() => { res.writeHead(200, { 'content-type': 'application/json', 'server-timing': `queue;dur=0.02, exec;dur=${LATENCY_MS}` }); res.end('{"content":"ok"}'); }, LATENCY_MS);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const sutUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pids: number[] = [];
  try {
    const runsDir = join(mnt, 'runs');
    const marker = 'vtbench-test-full-disk';
    const run: RunDeps = {
      startMock: async (o) => { const p = idleChild(marker); pids.push(p.pid); return { pid: p.pid, url: 'http://127.0.0.1:9', marker, stop: p.stop, logFile: o.logFile, probe: async () => true }; },
      startSut: async (o) => { const p = idleChild(marker); pids.push(p.pid); return { pid: p.pid, baseUrl: sutUrl, marker, stop: p.stop, logFile: o.logFile, probe: async () => true, info: sutInfo(o.variant) }; },
      getSamples: async () => [], getPinned: async () => null, getThreadDump: async () => { throw new Error('none'); },
      getMockStats: async () => null, resetMockStats: async () => null,
    };
    let cells = 0;
    const deps: MainDeps = {
      prepare: async () => ({ deps: run, jdk: null }),
      checkJdk: () => 'fake JDK', checkMaven: () => 'fake Maven',
      report: async () => { throw new Error('not rendered'); },
      // the disk fills up just before the second cell is written
      openStore: (dir) => new (class extends RunStore {
        override writeCell(cell: CellResult, requests: CompactRequests): void {
          if (++cells === 2) fillInodes(join(mnt, 'filler'));
          super.writeCell(cell, requests);
        }
      })(dir),
    };
    let err = '';
    const sink = (append: (s: string) => void) => ({ write: (s: string) => { append(String(s)); return true; }, isTTY: false }) as unknown as NodeJS.WriteStream;
    const io: Io = { stdout: sink(() => {}), stderr: sink((s) => { err += s; }) };
    const args = ['--profile', 'smoke', '--levels', '2,3', '--requests-per-worker', '2', '--repeats', '1', '--variants', 'virtual', '--latency-ms', String(LATENCY_MS),
      '--warmup-s', '0', '--mock-port', String(await freePort()), '--sut-port', String(await freePort()), '--runs-dir', runsDir, '--no-report', '--json'];
    const code = await main(args, io, deps);
    assert.equal(code, EXIT.prerequisite, err);
    assert.match(err, /error: cannot (write|open) .*cells\/\.?virtual-c3-r1.*no space left on the device \(ENOSPC\)/, 'the run\'s own error, not the cleanup\'s');
    const [runId] = readdirSync(runsDir);
    assert.equal(existsSync(join(runsDir, runId!, 'lock.json')), false, 'no lock.json left behind');
    assert.equal(pids.length, 2);
    for (const pid of pids) assert.equal(existsSync(`/proc/${pid}`), false, `child ${pid} stopped`);
  } finally {
    await new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
    execFileSync('umount', [mnt]);
    rmSync(tmp, { recursive: true, force: true });
  }
});
