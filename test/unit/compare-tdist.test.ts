import { test } from 'node:test';
import assert from 'node:assert/strict';
import { incompleteBeta, logGamma, tCdf, tQuantile, tTwoSidedP } from '../../src/compute/stats/tdist.ts';

const close = (actual: number, expected: number, tol: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected} (tolerance ${tol})`);

// scipy 1.17.1 (the golden table of test/unit/compare-stats.test.ts):
// df, t.ppf(0.975, df), t.cdf(-1.3, df), 2·t.sf(2.1, df)
const SCIPY: [number, number, number, number][] = [
  [2.5, 3.5746548420036817, 0.15024339463535416, 0.14450244475484378],
  [3.7, 2.8675207071911895, 0.13433336208631375, 0.10926470508222474],
  [30, 2.0422724563012378, 0.10175047926905843, 0.04424247126232353],
];

test('logGamma: ln Γ at integers, at ½ and below ½ (the reflection branch)', () => {
  close(logGamma(1), 0, 1e-14, 'ln Γ(1)');
  close(logGamma(2), 0, 1e-14, 'ln Γ(2)');
  close(logGamma(5), Math.log(24), 1e-13, 'ln Γ(5) = ln 4!');
  close(logGamma(10), Math.log(362_880), 1e-12, 'ln Γ(10) = ln 9!');
  close(logGamma(0.5), 0.5 * Math.log(Math.PI), 1e-14, 'ln Γ(½) = ln √π');
  // Γ(¼) = 3.625609908221908 (Γ(¼)·Γ(¾) = π√2 by the reflection formula)
  close(logGamma(0.25), Math.log(3.625609908221908), 1e-13, 'ln Γ(¼)');
  close(logGamma(0.25) + logGamma(0.75), Math.log(Math.PI * Math.SQRT2), 1e-13, 'ln Γ(¼) + ln Γ(¾)');
  // Γ(1.5) = √π / 2
  close(logGamma(1.5), Math.log(Math.sqrt(Math.PI) / 2), 1e-14, 'ln Γ(3/2)');
});

test('incompleteBeta: closed forms on both sides of the branch point (a + 1) / (a + b + 2)', () => {
  // integer a, b: I_x(a, b) = Σ_{j=a}^{a+b−1} C(a+b−1, j) x^j (1−x)^{a+b−1−j}; a = 2, b = 3 (branch point 3/7):
  // x = 0.3: 6·0.09·0.49 + 4·0.027·0.7 + 0.0081 = 0.2646 + 0.0756 + 0.0081 = 0.3483
  close(incompleteBeta(0.3, 2, 3), 0.3483, 1e-13, 'I_0.3(2,3)');
  // x = 0.6: 6·0.36·0.16 + 4·0.216·0.4 + 0.1296 = 0.3456 + 0.3456 + 0.1296 = 0.8208
  close(incompleteBeta(0.6, 2, 3), 0.8208, 1e-13, 'I_0.6(2,3)');
  close(incompleteBeta(0.3, 1, 1), 0.3, 1e-14, 'I_x(1,1) = x');
  close(incompleteBeta(0.3, 3, 1), 0.027, 1e-14, 'I_x(3,1) = x³');
  close(incompleteBeta(0.3, 1, 3), 1 - 0.7 ** 3, 1e-14, 'I_x(1,3) = 1 − (1−x)³');
  close(incompleteBeta(0.5, 4.5, 4.5), 0.5, 1e-14, 'I_½(a,a) = ½');
  // I_x(½, ½) = (2/π) asin √x: x = ¼ → (2/π)(π/6) = 1/3
  close(incompleteBeta(0.25, 0.5, 0.5), 1 / 3, 1e-13, 'I_¼(½,½)');
  assert.equal(incompleteBeta(0, 2, 3), 0);
  assert.equal(incompleteBeta(1, 2, 3), 1);
});

test('logGamma near 0 (df ≪ 1 gives a = df/2 there): the reflection keeps it exact (scipy.special.gammaln)', () => {
  close(logGamma(1e-3), 6.907178885383853, 1e-14, 'ln Γ(0.001)');
  close(logGamma(1e-5), 11.512919692895826, 1e-13, 'ln Γ(1e-5)');
});

test('incompleteBeta: far tails on both sides of the branch point (scipy.special.betainc)', () => {
  // each side of (a + 1) / (a + b + 2) uses the continued fraction that converges there: the other one
  // gives 1.000000000000012 for I_0.1(50, 50) and −1.2e-14 for I_0.9(50, 50)
  assert.ok(Math.abs(incompleteBeta(0.1, 50, 50) / 3.2321822349737616e-24 - 1) < 1e-12, String(incompleteBeta(0.1, 50, 50)));
  close(incompleteBeta(0.9, 50, 50), 1, 1e-15, 'I_0.9(50,50)');
  close(incompleteBeta(0.99, 200, 2), 0.4019390245738854, 1e-13, 'I_0.99(200,2)');
});

test('incompleteBeta: x outside [0, 1], NaN, or a, b ≤ 0 throw RangeError', () => {
  for (const [x, a, b] of [[-0.1, 1, 1], [1.1, 1, 1], [Number.NaN, 1, 1], [0.5, 0, 1], [0.5, 1, 0], [0.5, -1, 1], [0.5, Number.NaN, 1], [0.5, 1, Number.NaN]]) {
    assert.throws(() => incompleteBeta(x!, a!, b!), (e: unknown) => e instanceof RangeError && e.message === `incompleteBeta(${x}, ${a}, ${b}): need 0 ≤ x ≤ 1 and a, b > 0`);
  }
});

test('tTwoSidedP: closed forms for df 1 and 2, scipy for non-integer df; 1 at t = 0, 0 at ±∞', () => {
  // df = 1 (Cauchy): P(|T| ≥ t) = 1 − (2/π) atan t; t = 1 → ½; t = 3 → 0.20483276469913345
  close(tTwoSidedP(1, 1), 0.5, 1e-14, 'df 1, t 1');
  close(tTwoSidedP(-3, 1), 1 - (2 / Math.PI) * Math.atan(3), 1e-14, 'df 1, t −3');
  // df = 2: 1 − t / √(2 + t²); t = 2 → 1 − 2/√6
  close(tTwoSidedP(2, 2), 1 - 2 / Math.sqrt(6), 1e-14, 'df 2, t 2');
  for (const [df, , , p] of SCIPY) close(tTwoSidedP(2.1, df), p, 1e-10, `2·t.sf(2.1, ${df})`);
  // near t = 0 with large df (x = df / (df + t²) just below 1): scipy 2·t.sf(0.001, 30), 2·t.sf(0.01, 1e5);
  // the second agrees to 3.3e-10 only (1 − a sum near 1 cancels), the other branch would give 0.9057
  close(tTwoSidedP(0.001, 30), 0.9992087357664851, 1e-12, '2·t.sf(0.001, 30)');
  close(tTwoSidedP(0.01, 1e5), 0.9920213073188231, 1e-9, '2·t.sf(0.01, 1e5)');
  assert.equal(tTwoSidedP(0, 5), 1);
  assert.equal(tTwoSidedP(Infinity, 5), 0);
  assert.equal(tTwoSidedP(-Infinity, 5), 0);
});

test('tTwoSidedP: df ≤ 0, df NaN and t NaN throw RangeError', () => {
  assert.throws(() => tTwoSidedP(1, 0), (e: unknown) => e instanceof RangeError && e.message === 'tTwoSidedP: degrees of freedom must be > 0, got 0');
  assert.throws(() => tTwoSidedP(1, Number.NaN), (e: unknown) => e instanceof RangeError && e.message === 'tTwoSidedP: degrees of freedom must be > 0, got NaN');
  assert.throws(() => tTwoSidedP(Number.NaN, 3), (e: unknown) => e instanceof RangeError && e.message === 'tTwoSidedP: t is NaN');
});

test('tCdf: ½ + atan(t)/π for df 1; symmetric; scipy for non-integer df', () => {
  close(tCdf(1, 1), 0.75, 1e-14, 'df 1, t 1');
  close(tCdf(-1, 1), 0.25, 1e-14, 'df 1, t −1');
  close(tCdf(0, 7), 0.5, 1e-15, 't 0');
  for (const [df, , cdf] of SCIPY) {
    close(tCdf(-1.3, df), cdf, 1e-10, `t.cdf(−1.3, ${df})`);
    close(tCdf(1.3, df), 1 - cdf, 1e-10, `t.cdf(1.3, ${df})`);
  }
});

test('tQuantile: tan(π(p − ½)) for df 1, the closed form for df 2, scipy for non-integer df; odd symmetry', () => {
  close(tQuantile(0.75, 1), 1, 1e-12, 'df 1, p ¾');
  close(tQuantile(0.975, 1), Math.tan(Math.PI * 0.475), 1e-9, 'df 1, p 0.975');
  // df 2: t = (2p − 1) / √(2p(1 − p)); p = 0.975 → 0.95 / √0.04875 = 4.302652729749464
  close(tQuantile(0.975, 2), 0.95 / Math.sqrt(2 * 0.975 * 0.025), 1e-12, 'df 2, p 0.975');
  close(tQuantile(0.6, 2), 0.2 / Math.sqrt(2 * 0.6 * 0.4), 1e-13, 'df 2, p 0.6 (below the first bracket, t < 1)');
  for (const [df, q] of SCIPY) {
    close(tQuantile(0.975, df), q, 1e-10, `t.ppf(0.975, ${df})`);
    close(tQuantile(0.025, df), -q, 1e-10, `t.ppf(0.025, ${df})`);
  }
  assert.equal(tQuantile(0.5, 3), 0);
  // far tail, df 1: 1 − p = 1e-10 → tan(π(½ − 1e-10)) ≈ 1 / (π·1e-10) = 3.1830988618e9
  close(tQuantile(1 - 1e-10, 1) / (1 / (Math.PI * 1e-10)), 1, 1e-6, 'df 1, p 1 − 1e-10');
});

test('tQuantile: p outside (0, 1) or df ≤ 0 throw RangeError', () => {
  for (const p of [0, 1, -0.5, 1.5, Number.NaN]) {
    assert.throws(() => tQuantile(p, 3), (e: unknown) => e instanceof RangeError && e.message === `tQuantile: p must be in (0, 1), got ${p}`);
  }
  for (const df of [0, -1, Number.NaN]) {
    assert.throws(() => tQuantile(0.9, df), (e: unknown) => e instanceof RangeError && e.message === `tQuantile: degrees of freedom must be > 0, got ${df}`);
  }
});
