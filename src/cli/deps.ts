/**
 * The real dependencies of `main`: JDK discovery and the Maven build (src/jvm), the SUT and mock
 * processes, their HTTP clients, and the report renderer. Tests pass fakes instead.
 */
import { checkMaven } from '../adapters/host/prereq.ts';
import { join } from 'node:path';
import { findJdk, SUT_MIN_JDK } from '../adapters/jvm/jdk.ts';
import { buildSut, isUpToDate } from '../adapters/jvm/build.ts';
import { startSut } from '../adapters/jvm/sut-process.ts';
import { DEFAULT_BIND_ADDRESS } from '../adapters/jvm/bind.ts';
import { getSamples, getPinned, getThreadDump } from '../adapters/jvm/client.ts';
import { MalformedAnswerError } from '../adapters/store/answers.ts';
import { startMockProcess, getMockStats, resetMockStats } from '../adapters/process/mock-process.ts';
import { httpProbe } from '../adapters/process/liveness.ts';
import { runControlToken } from '../adapters/process/control-token.ts';
import type { MainDeps } from './context.ts';
import type { RunDeps } from '../pipeline/run.ts';
import { findPgBinaries, startPostgres, useExternalPostgres } from '../adapters/db/postgres.ts';

/** How long a SUT JVM may take to answer /bench/info after start. */
const SUT_READY_TIMEOUT_MS = 120_000;

/**
 * The MainDeps `run.mjs` uses. `prepare` finds a JDK >= SUT_MIN_JDK and builds the SUT jar with
 * Maven (log in `<logsDir>/build.log`; neither with an external SUT, `--sut-url`), then returns RunDeps that start the real mock process and
 * one real SUT JVM per block (the block's effective variant, the run's JVM flags, ports and bind
 * address; ready when `/bench/info` answers, within SUT_READY_TIMEOUT_MS) and read their HTTP
 * endpoints. `checkJdk` is the dry run's JDK check; `report` loads the report stage only when a
 * report is rendered. Nothing starts until `prepare` is called.
 * @throws VtbenchError from `prepare`: EXIT.prerequisite (no suitable JDK or Maven), EXIT.build
 *   (the Maven build failed); from `startSut`/`startMock`: EXIT.portInUse, EXIT.notReady
 */
export function realDeps(): MainDeps {
  return {
    async prepare(options, logsDir, extra) {
      const dbUrl = extra?.dbUrl ?? null;
      // the run's control token (src/adapters/process/control-token.ts): to the components in their environment, to their control calls in a header
      const controlToken = runControlToken();
      // an external SUT (--sut-url) needs neither a JDK nor a build here; startSut is then replaced (src/pipeline/external.ts)
      const local = options.sutUrl === undefined ? await (async () => {
        const jdk = findJdk(SUT_MIN_JDK);
        return { jdk, jarPath: await buildSut({ jdk, logFile: join(logsDir, 'build.log'), ...(extra?.signal ? { signal: extra.signal } : {}) }) };
      })() : null;
      const deps: RunDeps = {
        async startMock(o) {
          const m = await startMockProcess({ ...o, host: options.bindAddress ?? DEFAULT_BIND_ADDRESS, controlToken });
          return { ...m, marker: 'mock/src/cli.ts', logFile: o.logFile, probe: (timeoutMs) => httpProbe(`${m.url}/health`, timeoutMs) };
        },
        async startSut(o) {
          if (local === null) throw new Error('startSut called for a run with an external SUT (--sut-url)');
          const { jdk, jarPath } = local;
          const s = await startSut({
            jdk,
            jarPath,
            port: options.sutPort,
            bindAddress: options.bindAddress ?? DEFAULT_BIND_ADDRESS,
            mockBaseUrl: o.mockUrl,
            variant: o.variant,
            jvmFlags: [...options.jvmFlags],
            samplerIntervalMs: options.samplerIntervalMs,
            pinnedThresholdMs: options.pinnedThresholdMs,
            logFile: o.logFile,
            readyTimeoutMs: SUT_READY_TIMEOUT_MS,
            controlToken,
            ...(o.signal ? { signal: o.signal } : {}),
            ...(options.cpuIsolation ? { cpus: options.cpuIsolation.sutCpus } : {}),
          });
          return {
            pid: s.pid, baseUrl: s.baseUrl, info: s.info, marker: 'vtbench-sut', logFile: o.logFile,
            probe: (timeoutMs) => httpProbe(`${s.baseUrl}/bench/info`, timeoutMs),
            stop: () => s.stop(),
          };
        },
        getSamples: async (baseUrl, since) => (await getSamples(baseUrl, since)).samples,
        getPinned: async (baseUrl) => getPinned(baseUrl).catch((e: unknown) => { if (e instanceof MalformedAnswerError) throw e; return null; }), // no answer: unknown; a wrong answer: exit 6
        getThreadDump: (baseUrl) => getThreadDump(baseUrl),
        getMockStats,
        controlToken,
        resetMockStats: (url) => resetMockStats(url, controlToken),
        async startDb(o) {
          // own server (fresh data directory, stopped at the end) or --db-url (seeded, never stopped)
          if (dbUrl !== null) return useExternalPostgres(findPgBinaries(process.env, undefined, 'client'), dbUrl);
          return startPostgres({ bin: findPgBinaries(), maxPool: o.maxPool, logFile: o.logFile });
        },
      };
      return { deps, jdk: local ? { version: local.jdk.version, vendor: local.jdk.vendor } : null };
    },
    checkMaven,
    sutBuildNeeded: () => !isUpToDate(),
    checkJdk() {
      const jdk = findJdk(SUT_MIN_JDK);
      return `JDK ${jdk.version} (${jdk.vendor}) at ${jdk.home}`;
    },
    async report(runDir, outRoot, lang, studies) {
      // loaded when a report is rendered: listing, planning and measuring do not need the report stage
      const { renderReport } = await import('../report/index.ts');
      const r = await renderReport(runDir, outRoot, { lang, studies });
      return { outDir: r.outDir, gaps: r.gaps, answerText: r.answerText };
    },
  };
}
