/** Pure parts of the mock: PRNG, latency models, completion plan, lateness summary, config. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32, substream } from '../../mock/src/prng.ts';
import { latencySampler, type LatencyParams } from '../../mock/src/latency.ts';
import { countPromptTokens, planCompletion } from '../../mock/src/completion.ts';
import { latenessSummary } from '../../mock/src/stats.ts';
import { DEFAULT_MOCK_CONFIG, resolveMockConfig } from '../../mock/src/server.ts';

const base: LatencyParams = { ...DEFAULT_MOCK_CONFIG };

describe('mock units', () => {
  test('mulberry32 golden values (seed 1)', () => {
    const r = mulberry32(1);
    assert.deepEqual([r(), r(), r()], [0.6270739405881613, 0.002735721180215478, 0.5274470399599522]);
  });

  test('latency models: fixed, and seeded reproducible draws within their rules', () => {
    assert.equal(latencySampler(base, mulberry32(1))(), 1500);
    const draw = (p: Partial<LatencyParams>, n = 2000) => {
      const s = latencySampler({ ...base, ...p }, substream(42, 'latency'));
      return Array.from({ length: n }, s);
    };
    const u = draw({ latencyModel: 'uniform', latencyMinMs: 100, latencyMaxMs: 200 });
    assert.deepEqual(u, draw({ latencyModel: 'uniform', latencyMinMs: 100, latencyMaxMs: 200 }));
    assert.ok(u.every((x) => x >= 100 && x < 200));
    const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
    assert.ok(Math.abs(mean(u) - 150) < 3);
    const nrm = draw({ latencyModel: 'normal', latencyMs: 1000, latencySdMs: 100 });
    assert.ok(Math.abs(mean(nrm) - 1000) < 10);
    const sd = Math.sqrt(mean(nrm.map((x) => (x - 1000) ** 2)));
    assert.ok(Math.abs(sd - 100) < 10, `sd ${sd}`);
    const ln = draw({ latencyModel: 'lognormal', latencyMs: 500, latencySigma: 0.5 }).sort((a, b) => a - b);
    const median = ln[1000]!;
    assert.ok(Math.abs(median - 500) < 30, `median ${median}`);
    assert.ok(ln.every((x) => x > 0));
    assert.ok(draw({ latencyModel: 'normal', latencyMs: 10, latencySdMs: 100 }).every((x) => x >= 0));
  });

  test('completion plan: deterministic, truncation, prompt tokens', () => {
    const msgs = [{ role: 'user', content: 'abcdefgh' }];
    const a = planCompletion('m', msgs, 16, undefined);
    assert.deepEqual(planCompletion('m', msgs, 16, undefined), a);
    assert.equal(a.tokens.length, 16);
    assert.equal(a.finishReason, 'stop');
    assert.match(a.fingerprint, /^fp_[0-9a-f]{8}$/);
    const t = planCompletion('m', msgs, 16, 4);
    assert.deepEqual(t.tokens, a.tokens.slice(0, 4));
    assert.equal(t.finishReason, 'length');
    assert.equal(planCompletion('m', msgs, 16, 16).finishReason, 'stop');
    // 3 priming + (4 framing + ceil(8/4)) = 9; array content parts count their text
    assert.equal(countPromptTokens(msgs), 9);
    assert.equal(countPromptTokens([{ role: 'user', content: [{ type: 'text', text: 'abcde' }] }]), 3 + 4 + 2);
  });

  test('lateness summary: linear interpolation (R type 7), null when empty', () => {
    assert.equal(latenessSummary(new Float64Array(0)), null);
    const s = latenessSummary(new Float64Array([4, 1, 3, 2]))!;
    assert.equal(s.n, 4);
    assert.equal(s.p50, 2.5);
    assert.ok(Math.abs(s.p90 - 3.7) < 1e-12, String(s.p90));
    assert.ok(Math.abs(s.p99 - 3.97) < 1e-12, String(s.p99));
    assert.equal(s.max, 4);
  });

  test('config: defaults, frozen, rejects unknown keys', () => {
    const c = resolveMockConfig({});
    assert.equal(c.latencyMs, 1500);
    assert.equal(c.latencyModel, 'fixed');
    assert.equal(c.keepAliveTimeoutMs, 650_000);
    assert.equal(c.errorRate + c.hangRate + c.resetRate, 0);
    assert.ok(Object.isFrozen(c));
    assert.throws(() => resolveMockConfig({ latncyMs: 5 } as never), /unknown mock option "latncyMs"/);
    assert.throws(() => resolveMockConfig({ latencyModel: 'lognormal', latencyMs: 0 }), /--latency-ms 0 is invalid for --latency-model lognormal/);
  });
});
