/**
 * The run's control token (issue 34): the mock's `POST /stats/reset` and the SUT's `/bench/job/*`
 * and `/bench/threaddump` answer only a caller that sends it in the {@link CONTROL_TOKEN_HEADER}
 * header, whatever address they listen on. The harness makes one per run ({@link newControlToken};
 * or takes {@link CONTROL_TOKEN_ENV} from its own environment, for components someone else started
 * with the same value) and gives it to the components it starts in their environment, never on a
 * command line where `ps` shows it to every local user. Shared by the harness and the mock.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** The request header that carries the token. */
export const CONTROL_TOKEN_HEADER = 'x-vtbench-token';

/**
 * The environment variable that gives the token to the mock, to the SUT (Spring reads it as
 * `vtbench.control.token`) and, for components started elsewhere (`--sut-url`, `--mock-url`), to
 * the harness.
 */
export const CONTROL_TOKEN_ENV = 'VTBENCH_CONTROL_TOKEN';

/** A fresh token: 32 random bytes, base64url (43 characters). */
export function newControlToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The run's token: {@link CONTROL_TOKEN_ENV} of `env` when set (non-empty), else a fresh one. */
export function runControlToken(env: NodeJS.ProcessEnv = process.env): string {
  const given = env[CONTROL_TOKEN_ENV];
  return given !== undefined && given !== '' ? given : newControlToken();
}

/** Whether a header value is the expected token (constant time); false for an absent value. */
export function tokenMatches(expected: string, given: string | string[] | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
