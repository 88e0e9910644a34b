/**
 * The environment in every manifest (issue 33 item 1): cgroup limits, clock source, CPU affinity,
 * and the share of the machine's CPU other processes used during a cell (`otherCpuShare`, flag
 * `host-other-cpu`), each read from a synthetic /sys or /proc folder or a synthetic reading.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cpusAllowedOf, hostInfo, parseCpuList, parseCpuMax, parseCpusAllowed, parseMemoryLimit, parseProcStat, readCgroupLimits, readRunCpu } from '../../src/adapters/host/host.ts';
import { processTreeTicks } from '../../src/adapters/process/proc-cpu.ts';
import { otherCpuShare, OTHER_CPU_SHARE, type RunCpuReading } from '../../src/compute/analysis/other-cpu.ts';
import { computeFlags, type FlagInputs } from '../../src/compute/analysis/flags.ts';
import { summarize } from '../../src/load/summarize.ts';

/** A folder holding `files` (path → text). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'vtbench-env-'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

/** A /proc/<pid>/stat line: pid (comm) state ppid … utime stime cutime cstime (fields 14–17). */
const statLine = (pid: number, ppid: number, utime: number, stime: number, cutime = 0, cstime = 0) =>
  `${pid} (a b) c) S ${ppid} 1 1 0 -1 0 0 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 1 0 0 0 0\n`;

test('cgroup v2: cpu.max quota/period and memory.max; `max` is no limit', () => {
  assert.deepEqual(parseCpuMax('150000 100000'), { quotaUs: 150000, periodUs: 100000 });
  assert.deepEqual(parseCpuMax('max 100000'), { quotaUs: null, periodUs: 100000 });
  assert.deepEqual(parseCpuMax('garbage'), { quotaUs: null, periodUs: null });
  assert.equal(parseMemoryLimit('max'), null);
  assert.equal(parseMemoryLimit('2147483648'), 2147483648);
  assert.equal(parseMemoryLimit('9223372036854771712'), null, 'v1 "no limit"');
  const limited = tree({ 'cpu.max': '150000 100000\n', 'memory.max': '1073741824\n' });
  const open = tree({ 'cpu.max': 'max 100000\n', 'memory.max': 'max\n' });
  try {
    assert.deepEqual(readCgroupLimits(limited), { version: 2, cpuQuotaCores: 1.5, cpuQuotaUs: 150000, cpuPeriodUs: 100000, memoryLimitBytes: 1073741824 });
    assert.deepEqual(readCgroupLimits(open), { version: 2, cpuQuotaCores: null, cpuQuotaUs: null, cpuPeriodUs: null, memoryLimitBytes: null });
  } finally {
    rmSync(limited, { recursive: true });
    rmSync(open, { recursive: true });
  }
});

test('cgroup v1: cfs_quota_us / cfs_period_us and memory.limit_in_bytes; -1 and the page-counter maximum are no limit; nothing readable gives version null', () => {
  const v1 = tree({ 'cpu/cpu.cfs_quota_us': '50000\n', 'cpu/cpu.cfs_period_us': '100000\n', 'memory/memory.limit_in_bytes': '536870912\n' });
  const v1open = tree({ 'cpu/cpu.cfs_quota_us': '-1\n', 'cpu/cpu.cfs_period_us': '100000\n', 'memory/memory.limit_in_bytes': '9223372036854771712\n' });
  const none = tree({});
  try {
    assert.deepEqual(readCgroupLimits(v1), { version: 1, cpuQuotaCores: 0.5, cpuQuotaUs: 50000, cpuPeriodUs: 100000, memoryLimitBytes: 536870912 });
    assert.deepEqual(readCgroupLimits(v1open), { version: 1, cpuQuotaCores: null, cpuQuotaUs: null, cpuPeriodUs: null, memoryLimitBytes: null });
    assert.deepEqual(readCgroupLimits(none), { version: null, cpuQuotaCores: null, cpuQuotaUs: null, cpuPeriodUs: null, memoryLimitBytes: null });
  } finally {
    for (const d of [v1, v1open, none]) rmSync(d, { recursive: true });
  }
});

test('hostInfo records the cgroup and the clock source from /sys (null when unreadable)', () => {
  const sys = tree({ 'fs/cgroup/cpu.max': '100000 100000\n', 'fs/cgroup/memory.max': 'max\n', 'devices/system/clocksource/clocksource0/current_clocksource': 'tsc\n' });
  const empty = tree({});
  try {
    const h = hostInfo(sys);
    assert.equal(h.clockSource, 'tsc');
    assert.equal(h.cgroup?.cpuQuotaCores, 1);
    assert.equal(hostInfo(empty).clockSource, null);
    assert.equal(hostInfo(empty).cgroup?.version, null);
  } finally {
    rmSync(sys, { recursive: true });
    rmSync(empty, { recursive: true });
  }
});

test('affinity: Cpus_allowed_list of /proc/<pid>/status; CPU lists parse and refuse malformed ones', () => {
  assert.equal(parseCpusAllowed('Name:\tjava\nCpus_allowed:\t2\nCpus_allowed_list:\t1\nMems_allowed:\t1\n'), '1');
  assert.equal(parseCpusAllowed('Name:\tjava\n'), null);
  const proc = tree({ '42/status': 'Name:\tx\nCpus_allowed_list:\t0-1,3\n' });
  try {
    assert.equal(cpusAllowedOf(42, proc), '0-1,3');
    assert.equal(cpusAllowedOf(43, proc), null);
  } finally {
    rmSync(proc, { recursive: true });
  }
  assert.match(cpusAllowedOf(process.pid) ?? '', /^[\d,-]+$/, 'this process, from the real /proc');
  assert.deepEqual(parseCpuList('0-2,5'), [0, 1, 2, 5]);
  assert.deepEqual(parseCpuList('3,1,1'), [1, 3]);
  assert.throws(() => parseCpuList('2-1'), /runs backwards/);
  assert.throws(() => parseCpuList('a'), /not a CPU list/);
});

test('run CPU: /proc/stat busy and total, and the CPU of the harness and every process below it (not the others)', () => {
  assert.deepEqual(parseProcStat('cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 1 1 1\n'), { busy: 150, total: 1000 });
  assert.equal(parseProcStat('intr 1 2\n'), null);
  const proc = tree({
    stat: 'cpu  300 0 100 1500 100 0 0 0 0 0\n',
    '100/stat': statLine(100, 1, 10, 5, 7, 3), // the harness (cutime/cstime: children that ended)
    '101/stat': statLine(101, 100, 20, 10), // the SUT, its child
    '102/stat': statLine(102, 101, 4, 1), // a grandchild (e.g. a PostgreSQL backend)
    '200/stat': statLine(200, 1, 500, 500), // another process on the host
  });
  try {
    assert.equal(processTreeTicks(100, proc), 10 + 5 + 7 + 3 + 20 + 10 + 4 + 1);
    assert.equal(processTreeTicks(101, proc), 35);
    assert.equal(processTreeTicks(999, proc), null, 'a root that is gone');
    assert.deepEqual(readRunCpu(100, proc), { busyTicks: 400, totalTicks: 2000, ownTicks: 60 });
  } finally {
    rmSync(proc, { recursive: true });
  }
});

test('otherCpuShare: busy less the run\'s own over the total, clamped to 0..1; null when a reading is missing', () => {
  const r = (busyTicks: number, totalTicks: number, ownTicks: number | null): RunCpuReading => ({ busyTicks, totalTicks, ownTicks });
  assert.equal(otherCpuShare(r(0, 0, 0), r(500, 1000, 100)), 0.4);
  assert.equal(otherCpuShare(r(0, 0, 0), r(100, 1000, 100)), 0, 'only the run used CPU');
  assert.equal(otherCpuShare(r(0, 0, 0), r(100, 1000, 130)), 0, 'clamped at 0 (the sources tick apart)');
  assert.equal(otherCpuShare(r(0, 0, 0), r(1000, 1000, -500)), 1, 'clamped at 1');
  assert.equal(otherCpuShare(null, r(1, 2, 0)), null);
  assert.equal(otherCpuShare(r(0, 0, null), r(1, 2, 0)), null);
  assert.equal(otherCpuShare(r(0, 1000, 0), r(0, 1000, 0)), null, 'no tick passed');
});

test('host-other-cpu: raised above the stated share, not at or below it, and not without a reading', () => {
  const base: FlagInputs = {
    executor: { kind: 'virtual-per-task' }, latencyMs: 100, t0EpochMs: 0, sutSamples: [],
    load: summarize([{ worker: 0, seq: 0, intendedStartMs: 0, startMs: 0, endMs: 100, e2eMs: 100, status: 200, errorClass: null, serverTiming: {} }], 1, 1),
    eventLoopLagP99Ms: 1, eventLoopLagMaxMs: 1, loadgenCpuPct: 1, hostCpuPct: 10, errorFlagThreshold: 0.5,
  };
  const other = (x: number | null | undefined) => computeFlags({ ...base, otherCpuShare: x }).filter((f) => f.code === 'host-other-cpu');
  assert.equal(OTHER_CPU_SHARE, 0.1);
  // synthetic /proc/stat readings: 30 % of the machine busy, the run's processes 5 %
  const share = otherCpuShare({ busyTicks: 0, totalTicks: 0, ownTicks: 0 }, { busyTicks: 300, totalTicks: 1000, ownTicks: 50 });
  const [f] = other(share);
  assert.ok(f, 'flagged');
  assert.equal(f.value, 0.25);
  assert.equal(f.threshold, 0.1);
  assert.match(f.message, /25 %.*host-limited/);
  assert.deepEqual(other(otherCpuShare({ busyTicks: 0, totalTicks: 0, ownTicks: 0 }, { busyTicks: 150, totalTicks: 1000, ownTicks: 50 })), [], '10 %: not above');
  assert.deepEqual(other(null), []);
  assert.deepEqual(other(undefined), []);
});
