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

/** Whether an address reaches this host only (127.0.0.0/8, ::1, an IPv4-mapped loopback). */
export function isLoopbackAddress(address: string): boolean {
  const a = address.trim().toLowerCase();
  if (a === '::1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * The warning of a bind beyond loopback (`--bind-address`), naming what becomes reachable from other
 * hosts: the SUT's and the mock's routes, and which of them are control endpoints that answer only
 * the run's token (src/adapters/process/control-token.ts); null on loopback or when neither is started here.
 */
export function bindWarning(bindAddress: string, local: { sutPort?: number; mockPort?: number }): string | null {
  if (isLoopbackAddress(bindAddress)) return null;
  const parts: string[] = [];
  if (local.sutPort !== undefined) parts.push(`the SUT on port ${local.sutPort} (its benchmark routes /api/*, /bench/info, /bench/samples, /bench/pinned, /bench/threaddump, /bench/ws, and the control endpoints /bench/job/*, which start up to 2,000,000 threads)`);
  if (local.mockPort !== undefined) parts.push(`the mock LLM on port ${local.mockPort} (/v1/chat/completions, /delay, /stats, /health, and the control endpoint POST /stats/reset)`);
  if (parts.length === 0) return null;
  return `--bind-address ${bindAddress} is not loopback: ${parts.join(' and ')} answer every host that reaches this one; the control endpoints answer only the run's token (made for this run, given to the components in their environment, never on a command line); use --bind-address 127.0.0.1 unless the load comes from another host`;
}
