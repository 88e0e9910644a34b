/**
 * A failed HTTP call in words. undici's `fetch` rejects with `TypeError: fetch failed` and keeps what
 * happened in `.cause` (`code` ECONNREFUSED, ENOTFOUND, …); an `AbortSignal.timeout` rejects with a
 * `TimeoutError`. Messages name the cause and the address instead of "fetch failed" (issue 34). Pure.
 */

/** `host:port` of a URL (the scheme's default port when none is given). */
function hostPort(url: string): { host: string; hostPort: string } {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    return { host: u.hostname, hostPort: `${u.hostname}:${port}` };
  } catch {
    return { host: url, hostPort: url };
  }
}

/**
 * What went wrong with a call to `url`, from the error `fetch` (or undici's `request`) rejected with:
 * "connection refused to h:p", "host h not found", "connection reset by h:p", "no route to host h",
 * "connecting to h:p timed out", "no answer from <url> within <ms> ms" (with `timeoutMs`); any other
 * cause as "<message>: <cause message> (<code>)"; an error without a cause as its message.
 */
export function describeFetchError(e: unknown, url: string, timeoutMs?: number): string {
  const err = e as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string; name?: string } };
  const { host, hostPort: hp } = hostPort(url);
  if (err?.name === 'TimeoutError' || err?.cause?.name === 'TimeoutError' || (err?.name === 'AbortError' && timeoutMs !== undefined)) {
    return `no answer from ${url}${timeoutMs !== undefined ? ` within ${timeoutMs} ms` : ' in time'}`;
  }
  const code = err?.cause?.code ?? err?.code;
  switch (code) {
    case 'ECONNREFUSED': return `connection refused to ${hp}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN': return `host ${host} not found`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET': return `connection reset by ${hp}`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH': return `no route to host ${host}`;
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT': return `connecting to ${hp} timed out`;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT': return `no answer from ${url}${timeoutMs !== undefined ? ` within ${timeoutMs} ms` : ' in time'}`;
    default: break;
  }
  const message = err?.message ?? String(e);
  if (err?.cause?.message) return `${message}: ${err.cause.message}${code ? ` (${code})` : ''}`;
  return message;
}
