/**
 * Where the SUT and the mock listen. Both bind the loopback address unless `--bind-address` says
 * otherwise (a benchmark service with no authentication should not answer the network). Pure.
 */
import { isIP } from 'node:net';

/** Default listen address of the SUT (`server.address`) and the mock (`--host`). */
export const DEFAULT_BIND_ADDRESS = '127.0.0.1';

/**
 * The address a client on this machine connects to for a server bound to `bindAddress`: the
 * loopback address of the same family for a wildcard (`0.0.0.0` → `127.0.0.1`, `::` → `::1`), else
 * the address itself.
 */
export function connectHostOf(bindAddress: string): string {
  if (bindAddress === '0.0.0.0') return '127.0.0.1';
  if (bindAddress === '::' || bindAddress === '::0') return '::1';
  return bindAddress;
}

/** `http://<host>:<port>` for a server bound to `bindAddress` (IPv6 in brackets). */
export function httpOrigin(bindAddress: string, port: number): string {
  const host = connectHostOf(bindAddress);
  return `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}
