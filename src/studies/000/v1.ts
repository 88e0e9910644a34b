/**
 * Reader of schema version 1: the run format before the study engine, written only by study 000
 * (the one study then). v1 named the arm `mode` (fixed | virtual), held one pool size for the run
 * (`options.poolSize`, `queueCapacity`; `cell.poolSize`), the SUT's executor as
 * `{mode, poolSize, queueCapacity, pinning}`, and counted pool threads in a socket read as
 * `inSocketRead.fixedPool`. Upgraded in memory to the current schema; the files stay as written.
 */
import type { LegacyReader } from '../../types/study.ts';
import type { RunManifest } from '../../types/run.ts';
import { VARIANTS, SCENARIOS } from './arms.ts';

type Raw = Record<string, unknown>;

function variantSpec(mode: string, poolSize: number, queueCapacity: number): unknown {
  const v = VARIANTS.find((x) => x.id === mode);
  if (!v) throw new Error(`schema 1: unknown mode '${mode}'`);
  return v.executor.kind === 'platform-pool' ? { ...v, executor: { kind: 'platform-pool', threads: poolSize, queueCapacity } } : structuredClone(v);
}

function threadDump(td: Raw | null | undefined): unknown {
  if (!td) return td;
  const { fixedPool, ...rest } = (td['inSocketRead'] ?? {}) as Raw;
  return { ...td, inSocketRead: { poolThreads: fixedPool, ...rest } };
}

function executorOf(manifest: RunManifest, variant: string): unknown {
  const v = manifest.options.variantSpecs.find((x) => x.id === variant);
  if (!v) throw new Error(`schema 1: mode '${variant}' is not in the manifest's modes`);
  return v.executor;
}

export const V1_READER: LegacyReader = {
  version: 1,
  // schema 1 predates studies: its manifests name no study, and every such run is study 000's
  forRunsWithoutStudy: true,
  manifest(raw) {
    const o = raw['options'] as Raw;
    const { modes, poolSize, queueCapacity, ...rest } = o as Raw & { modes: string[]; poolSize: number; queueCapacity: number };
    const options = {
      study: '000',
      profile: rest['profile'],
      scenario: SCENARIOS[0]!.id,
      ...rest,
      variants: modes,
      poolSize,
      queueCapacity,
      variantSpecs: modes.map((m) => variantSpec(m, poolSize, queueCapacity)),
    };
    const sut: Raw = {};
    for (const [k, info] of Object.entries((raw['sut'] ?? {}) as Record<string, Raw>)) {
      const ex = info['executor'] as Raw & { mode: string; poolSize: number; queueCapacity: number };
      const v = VARIANTS.find((x) => x.id === ex.mode);
      const pool = v?.executor.kind === 'platform-pool';
      sut[k] = {
        ...info,
        executor: { variant: ex.mode, kind: v?.executor.kind ?? ex.mode, threads: pool ? ex.poolSize : null, queueCapacity: pool ? ex.queueCapacity : null, threadNamePrefix: v?.threadNamePrefix ?? '', pinning: ex['pinning'] },
        scenarios: [],
      };
    }
    return { ...raw, schemaVersion: 2, options, sut };
  },
  cell(raw, manifest) {
    const { mode, poolSize: _poolSize, ...rest } = raw as Raw & { mode: string };
    const out: Raw = { ...rest, schemaVersion: 2, variant: mode, scenario: manifest.options.scenario, executor: executorOf(manifest, mode) };
    if ('threadDump' in raw) out['threadDump'] = threadDump(raw['threadDump'] as Raw | null);
    return out;
  },
  summary(raw) {
    const rows = ((raw['rows'] ?? []) as Raw[]).map(({ mode, ...r }) => ({ variant: mode, ...r }));
    return { ...raw, schemaVersion: 2, rows };
  },
  threadDump(raw) {
    return threadDump(raw);
  },
};
