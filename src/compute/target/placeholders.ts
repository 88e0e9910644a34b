/**
 * Placeholders for a target's downstreams (issue 32): vtbench can start the mock LLM
 * (`--target-mock <latency-ms>`) and a PostgreSQL (`--target-db postgres`) for a service it did not
 * build; the user's `--target-arg`, `--target-jvm-arg` and `--target-env NAME=VALUE` values name their
 * addresses with `{mockUrl}` (the mock's origin, without `/v1`), `{dbUrl}`, `{dbUser}`, `{dbPassword}`,
 * replaced when the downstream has started (its port is known only then). Pure. An `--arm`'s properties
 * may not hold them (refused: use --target-arg).
 *
 * `{dbPassword}` is a secret: it may appear only in `--target-env` (the jar's environment), never in an
 * argument, which `ps` shows to every local user for the whole run.
 */
import { EXIT, VtbenchError } from '../../types/errors.ts';

/** The placeholders and what provides each. */
export const PLACEHOLDERS = {
  mockUrl: { needs: '--target-mock <latency-ms>', what: "the mock LLM's origin without /v1, e.g. http://127.0.0.1:40123 (write {mockUrl}/v1 where your client's base URL includes /v1)" },
  dbUrl: { needs: '--target-db postgres', what: 'the JDBC URL of the PostgreSQL vtbench started' },
  dbUser: { needs: '--target-db postgres', what: "that database's user" },
  dbPassword: { needs: '--target-db postgres', what: "that user's password (in --target-env only)" },
} as const;

export type PlaceholderName = keyof typeof PLACEHOLDERS;

const PATTERN = /\{(mockUrl|dbUrl|dbUser|dbPassword)\}/g;

/**
 * Arguments whose key names a secret, recorded as `--key=***` (`-Dkey=***` for a system property):
 * a key holding password, secret, token, credential or api-key / apikey (any case). Pure.
 * @param args command-line arguments as given (`--spring.datasource.password=x`, `-Dmy.token=y`)
 * @returns the same arguments, the value of each secret one replaced by `***`
 */
export function redactArgs(args: readonly string[]): string[] {
  return args.map((a) => a.replace(/^(--?[^=]*(?:password|secret|token|credential|api-?key)[^=]*=).*$/i, '$1***'));
}

/**
 * `s` with every absolute path shortened to `…/<last part>` (`-javaagent:/home/me/agent.jar=port=1`
 * → `-javaagent:…/agent.jar=port=1`), so what a run records about its JVM and what a report shows name
 * no folder of the machine it ran on. A path starts at the string's start or after `=`, `:`, `,` or a
 * space. Pure.
 */
export function shortenPaths(s: string): string {
  return s.replace(/(^|[=:,\s])\/(?:[^\s=,:/]+\/)+([^\s=,:/]+)/g, '$1…/$2');
}

/**
 * Environment variables the JVM reads as options (HotSpot reports their contents among its input
 * arguments and prints "Picked up …" to its log): a secret there would reach the manifest and logs.
 */
export const JVM_OPTION_ENV = ['JAVA_TOOL_OPTIONS', 'JDK_JAVA_OPTIONS', '_JAVA_OPTIONS'] as const;

/** The placeholder names used in `s`, in order of first use. */
export function placeholdersIn(s: string): PlaceholderName[] {
  return [...new Set([...s.matchAll(PATTERN)].map((m) => m[1] as PlaceholderName))];
}

/**
 * Checks, before anything starts, that every placeholder used has its downstream asked for and that
 * `{dbPassword}` is not in an argument.
 * @param uses where each value came from (`--target-arg`, `--target-jvm-arg`, `--target-env NAME`) and the value
 * @param provided the placeholders the run's options provide
 * @throws VtbenchError(EXIT.usage) naming the option, the placeholder and the fix
 */
export function checkPlaceholders(uses: readonly { option: string; value: string }[], provided: ReadonlySet<PlaceholderName>): void {
  for (const u of uses) {
    for (const p of placeholdersIn(u.value)) {
      if (p === 'dbPassword' && !u.option.startsWith('--target-env')) {
        throw new VtbenchError(`${u.option}: {dbPassword} in an argument would show the password to every local user (ps)`, 'pass it in the environment instead: --target-env MY_DB_PASSWORD={dbPassword} (the variable your service reads)', EXIT.usage);
      }
      if (p === 'dbPassword' && JVM_OPTION_ENV.some((n) => u.option === `--target-env ${n}`)) {
        throw new VtbenchError(`${u.option}: {dbPassword} in a variable the JVM reads as options would reach the run's manifest and logs (the JVM reports and prints them)`, 'pass it in a variable your service reads itself: --target-env MY_DB_PASSWORD={dbPassword}', EXIT.usage);
      }
      if (!provided.has(p)) throw new VtbenchError(`${u.option}: {${p}} needs ${PLACEHOLDERS[p].needs}`, `add ${PLACEHOLDERS[p].needs}, which provides ${PLACEHOLDERS[p].what}, or remove {${p}}`, EXIT.usage);
    }
  }
}

/**
 * `s` with every placeholder replaced by its value.
 * @throws VtbenchError(EXIT.usage) when `s` uses a placeholder `values` lacks (checkPlaceholders refuses that earlier)
 */
export function fillPlaceholders(s: string, values: Partial<Record<PlaceholderName, string>>): string {
  return s.replace(PATTERN, (_, name: PlaceholderName) => {
    const v = values[name];
    if (v === undefined) throw new VtbenchError(`{${name}} has no value: nothing started what ${PLACEHOLDERS[name].needs} starts`, `add ${PLACEHOLDERS[name].needs} (with --target-jar), or remove {${name}}`, EXIT.usage);
    return v;
  });
}
