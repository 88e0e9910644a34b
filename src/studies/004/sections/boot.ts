/** Study 004's `{{bootTable}}` (Boot's executors as read back from each SUT JVM) and its `{{environment}}` override. Pure. */
import type { ReportModel } from '../../../report/model.ts';
import type { RenderContext } from '../../../report/types.ts';
import { Raw, code, int, raw, table } from '../../../report/format.ts';

/** `{{bootTable}}` */
export function bootTable(model: ReportModel, ctx: RenderContext): Raw {
  const { s } = ctx;
  const bootRows = Object.entries(model.manifest.sut).sort(([a], [b]) => (a < b ? -1 : 1)).map(([block, info]) => {
    const b = info.boot;
    if (!b) return [block, '—', '—', '—', '—', '—'];
    const async = b.asyncCorePoolSize !== null ? s('boot.pool', { core: int(b.asyncCorePoolSize), queue: b.asyncQueueCapacity === 2147483647 ? s('boot.unbounded') : int(b.asyncQueueCapacity) }) : s('boot.limit', { limit: b.asyncConcurrencyLimit === -1 || b.asyncConcurrencyLimit === null ? s('boot.unbounded') : int(b.asyncConcurrencyLimit) });
    return [block, code(b.asyncExecutorClass.replace(/^.*\./, '')), async, `${code(b.asyncProbeThreadName).md} (${b.asyncProbeVirtual ? s('kind.virtual') : s('kind.platform')})`,
      b.tomcatExecutorClass ? code(b.tomcatExecutorClass.replace(/^.*\./, '')) : '—',
      b.tomcatMaxThreads === null ? s('boot.tomcatVirtual') : int(b.tomcatMaxThreads)];
  });
  return table([s('h.block'), s('h.asyncExecutor'), s('h.asyncLimits'), s('h.probe'), s('h.tomcatExecutor'), s('h.tomcatMaxThreads')], bootRows.map((r) => r.map((x) => (x instanceof Raw ? x : raw(String(x))))));

}

/**
 * `{{environment}}`: the engine's environment table prints Tomcat's maxThreads of the first JVM from its properties;
 * on virtual threads that value is not in effect (Tomcat reads −1), so the row points to §1's
 * per-JVM table read back from the running Tomcat instead. Undefined when the engine has none.
 */
export function environment004(ctx: RenderContext): Raw | undefined {
  const { s } = ctx;
  const env = ctx.generic('environment');
  if (env === undefined) return undefined;
  const md = env instanceof Raw ? env.md : env;
  return raw(md.replace(/^(\| Tomcat \| )maxThreads [^,|]+, /m, `$1${s('env.tomcatThreads')}; `));
}
