/**
 * A process the load depends on died while it ran: a load shard of `--shards K` (src/load/shards.ts)
 * or another shard of a multi-host run (src/pipeline/pod-shard.ts). A driver rejects with this error;
 * the pipeline (src/pipeline/run.ts runCell) then records the cell as failed with `death` as its
 * cause, exactly as for a dead SUT or mock (exit 6, `cells/<id>.failed.json`, `--resume` measures it).
 */
import { VtbenchError, EXIT } from '../types/errors.ts';

/** What died: a role for messages, its pid on this host (null when it has none here), the one-line cause. */
export interface LoadDeath {
  role: string;
  pid: number | null;
  cause: string;
  atIso: string;
}

export class ComponentDiedError extends VtbenchError {
  /** @param message default `the <role> died (<cause>)` */
  constructor(readonly death: LoadDeath, hint = 'see the shard\'s stderr in the cause; continue with --resume', message = `the ${death.role} died (${death.cause})`) {
    super(message, hint, EXIT.notReady);
    this.name = 'ComponentDiedError';
  }
}
