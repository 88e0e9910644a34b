import type { ErrorClass } from '../types/load.ts';

/**
 * Error class of a failed request from the error undici (or the OS) raised.
 *   connect: UND_ERR_CONNECT_TIMEOUT, ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL, ENOTFOUND
 *   reset:   ECONNRESET, EPIPE, UND_ERR_SOCKET ("other side closed"), UND_ERR_CLOSED, UND_ERR_DESTROYED
 *   timeout: UND_ERR_HEADERS_TIMEOUT, UND_ERR_BODY_TIMEOUT, ETIMEDOUT
 *   other:   anything else (parser errors, content-length mismatch, ...)
 * undici does not retry POST, so each of these is one lost request.
 */
export function classifyError(err: unknown): ErrorClass {
  let e: unknown = err;
  // undici may wrap the OS error (`cause`); look one level down when the outer code says nothing
  for (let depth = 0; depth < 3 && e != null; depth++) {
    const code = typeof e === 'object' ? (e as { code?: unknown }).code : undefined;
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
      case 'ECONNREFUSED':
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
      case 'EADDRNOTAVAIL':
      case 'ENOTFOUND':
        return 'connect';
      case 'ECONNRESET':
      case 'EPIPE':
      case 'UND_ERR_SOCKET':
      case 'UND_ERR_CLOSED':
      case 'UND_ERR_DESTROYED':
        return 'reset';
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
      case 'ETIMEDOUT':
        return 'timeout';
      default:
        break;
    }
    e = typeof e === 'object' ? (e as { cause?: unknown }).cause : undefined;
  }
  return 'other';
}

/** Error class of a response that arrived: null for 2xx, `http` for >= 400, `other` for 1xx/3xx. */
export function classifyStatus(status: number): ErrorClass | null {
  if (status >= 200 && status < 300) return null;
  return status >= 400 ? 'http' : 'other';
}
