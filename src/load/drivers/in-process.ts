/** The in-process driver (DriverKind `in-process`), registered in src/load/driver.ts. */
import type { Driver } from '../driver-plan.ts';
import { VtbenchError, EXIT } from '../../types/errors.ts';
import { runInProcessJob } from '../in-process.ts';

declare module '../../types/study.ts' {
  interface DriverKinds {
    'in-process': true;
  }
}

/**
 * The in-process driver: one SUT job per cell (`Scenario.job`, src/load/in-process.ts). The plan's
 * concurrency and requests per worker are not sent: the job's tasks come from `Scenario.job(options)`.
 * @throws VtbenchError(EXIT.usage) when the scenario has no `job`
 */
export const inProcessDriver: Driver = {
  kind: 'in-process',
  level: 'job',
  aloneProbe: false,
  controlCalls: true,
  run(p) {
    const variant = p.variant;
    const job = variant ? p.scenario.job?.(p.options, variant, p.concurrency) : undefined;
    if (!job || !variant) {
      return Promise.reject(new VtbenchError(`--scenario: scenario ${p.scenario.id} uses the in-process driver but ${variant ? 'defines no job' : 'the cell names no variant'}`, 'give the scenario a job(o, variant) (src/types/study.ts Scenario.job); the pipeline passes the variant', EXIT.usage));
    }
    return runInProcessJob(p.baseUrl, job, p.signal, p.controlToken ?? null);
  },
};

