/**
 * The statistics of `compare` against values computed independently with scipy 1.17.1 (Welch's
 * t-test is scipy's `ttest_ind(..., equal_var=False)` and R's `t.test` default). Golden values were
 * produced with:
 *
 *   python3 -c "
 *   from scipy import stats
 *   for a, b in [([1518.8,1528.5,1532.9], [1601.2,1590.4,1612.7,1598.0]),
 *                ([21.26,21.27,21.26], [21.25,21.28,21.27]),
 *                ([10,12], [30,31,29,35,40])]:
 *       r = stats.ttest_ind(b, a, equal_var=False); ci = r.confidence_interval(0.95)
 *       print(repr(r.statistic), repr(r.pvalue), repr(r.df), repr(ci.low), repr(ci.high))
 *   for df in [1,2,2.5,3.7,4,10,30,1000]:
 *       print(df, repr(float(stats.t.ppf(0.975,df))), repr(float(stats.t.cdf(-1.3,df))), repr(float(2*stats.t.sf(2.1,df))))"
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tCdf, tQuantile, tTwoSidedP, logGamma, incompleteBeta } from '../../src/compute/stats/tdist.ts';
import { welch } from '../../src/compute/stats/welch.ts';

const close = (actual: number | null, expected: number, tol: number, what: string) => {
  assert.ok(actual !== null && Math.abs(actual - expected) <= tol, `${what}: ${actual} vs scipy ${expected} (tolerance ${tol})`);
};

// df, t.ppf(0.975, df), t.cdf(-1.3, df), 2·t.sf(2.1, df)
const T_TABLE: [number, number, number, number][] = [
  [1, 12.706204736174694, 0.20871440016015272, 0.282926056243018],
  [2, 4.302652729749462, 0.16162351590802015, 0.1705498691899675],
  [2.5, 3.5746548420036817, 0.15024339463535416, 0.14450244475484378],
  [3.7, 2.8675207071911895, 0.13433336208631375, 0.10926470508222474],
  [4, 2.7764451051977934, 0.13172579823561206, 0.10365328631760218],
  [10, 2.228138851986274, 0.1113829086034223, 0.06207724420221853],
  [30, 2.0422724563012378, 0.10175047926905843, 0.04424247126232353],
  [1000, 1.9623390808264083, 0.09695026420772866, 0.03597887431078197],
];

test('Student t quantile, CDF and two-sided p agree with scipy.stats.t to 1e-10, non-integer df included', () => {
  for (const [df, q, cdf, p] of T_TABLE) {
    close(tQuantile(0.975, df), q, 1e-10, `t.ppf(0.975, ${df})`);
    close(tQuantile(0.025, df), -q, 1e-10, `t.ppf(0.025, ${df})`);
    close(tCdf(-1.3, df), cdf, 1e-10, `t.cdf(-1.3, ${df})`);
    close(tCdf(1.3, df), 1 - cdf, 1e-10, `t.cdf(1.3, ${df})`);
    close(tTwoSidedP(2.1, df), p, 1e-10, `2 t.sf(2.1, ${df})`);
  }
  assert.equal(tQuantile(0.5, 3), 0);
});

test('log-gamma and the incomplete beta at hand-checkable points', () => {
  close(logGamma(1), 0, 1e-13, 'ln Γ(1)');
  close(logGamma(5), Math.log(24), 1e-13, 'ln Γ(5)');
  close(logGamma(0.5), 0.5 * Math.log(Math.PI), 1e-13, 'ln Γ(½)');
  close(incompleteBeta(0.3, 1, 1), 0.3, 1e-13, 'I_0.3(1,1)'); // uniform
  close(incompleteBeta(0.3, 2, 1), 0.09, 1e-13, 'I_0.3(2,1) = x²');
  assert.throws(() => incompleteBeta(1.5, 1, 1), RangeError);
  assert.throws(() => tQuantile(1, 3), RangeError);
  assert.throws(() => tQuantile(0.9, 0), RangeError);
});

test("Welch's interval, Satterthwaite df, t and p of B − A equal scipy's ttest_ind(b, a, equal_var=False)", () => {
  const cases: { a: number[]; b: number[]; t: number; p: number; df: number; lo: number; hi: number }[] = [
    { a: [1518.8, 1528.5, 1532.9], b: [1601.2, 1590.4, 1612.7, 1598.0], t: 11.8527726874379, p: 7.983601218826857e-05, df: 4.954451794927853, lo: 57.7827978189394, hi: 89.90053551439354 },
    { a: [21.26, 21.27, 21.26], b: [21.25, 21.28, 21.27], t: 0.3535533905929519, p: 0.7507381458591357, df: 2.559999999999755, lo: -0.029810361783400775, hi: 0.03647702845006138 },
    { a: [10, 12], b: [30, 31, 29, 35, 40], t: 9.74176374094105, p: 0.0001938763633216873, df: 4.999519461797213, lo: 16.1946410469886, hi: 27.8053589530114 },
  ];
  for (const c of cases) {
    const w = welch(c.a, c.b);
    assert.ok(w.computable);
    close(w.t, c.t, 1e-9 * Math.abs(c.t), 't');
    close(w.df, c.df, 1e-9 * c.df, 'df');
    close(w.p, c.p, 1e-10, 'p');
    close(w.ci[0], c.lo, 1e-9 * Math.max(1, Math.abs(c.lo)), 'ci low');
    close(w.ci[1], c.hi, 1e-9 * Math.max(1, Math.abs(c.hi)), 'ci high');
  }
});

test('Welch with n = 1 on a side is "not computable" with the reason, never an exception', () => {
  const w = welch([5], [1, 2, 3]);
  assert.equal(w.computable, false);
  assert.ok(!w.computable && /A has n = 1/.test(w.reason), JSON.stringify(w));
  const none = welch([], [1]);
  assert.ok(!none.computable && /A has n = 0, B has n = 1/.test(none.reason));
});

test('Welch with no spread in either sample: the exact difference, a point interval, no df', () => {
  const eq = welch([3, 3], [3, 3, 3]);
  assert.deepEqual(eq, { computable: true, diff: 0, ci: [0, 0], se: 0, df: null, t: null, p: 1 });
  const ne = welch([3, 3], [4, 4]);
  assert.ok(ne.computable && ne.diff === 1 && ne.p === 0 && ne.ci[0] === 1);
});
