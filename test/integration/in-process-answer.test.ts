/**
 * The in-process driver carries a study's own job answer (InProcessJob.answer) without reading it:
 * an answer the study's check accepts is the cell's `jobAnswer` (stored as CellResult.sweep), one it
 * refuses is a failed request. The check here is a made-up study's, so the engine is seen to know none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInProcessJob } from '../../src/load/in-process.ts';
import { unusableLoad } from '../../src/pipeline/failed-cells.ts';
import type { InProcessJob, JobAnswerCheck } from '../../src/types/study.ts';

const CHECK: JobAnswerCheck = { problem: (job, body) => ((body as { made?: unknown } | null)?.made === job.tasks ? null : 'not made') };
const JOB: InProcessJob = { path: '/bench/job/made-up', tasks: 7, sleepMs: 1, timeoutMs: 5000, answer: CHECK };

async function answering(body: unknown): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => { req.resume(); res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

test('in-process driver: an answer the study\'s check accepts is carried as it came, one it refuses is a failed request', async () => {
  const ok = await answering({ made: 7, anything: ['else'] });
  try {
    const r = await runInProcessJob(ok.url, JOB, new AbortController().signal);
    assert.deepEqual(r.jobAnswer, { made: 7, anything: ['else'] });
    assert.equal(r.job, undefined);
    assert.equal(r.summary.ok, 1);
  } finally {
    ok.close();
  }
  const bad = await answering({ made: 6 });
  try {
    const r = await runInProcessJob(bad.url, JOB, new AbortController().signal);
    assert.equal(r.jobAnswer, undefined);
    assert.equal(r.summary.ok, 0);
    assert.notEqual(unusableLoad(r.summary), null, 'the pipeline records the cell as failed');
  } finally {
    bad.close();
  }
});
