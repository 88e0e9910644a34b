/**
 * Prerequisite checks, run before anything starts: Maven present, ports free, disk space.
 * (The JDK is found by src/jvm/jdk.ts.) Each failure is one VtbenchError with the fix.
 */
import { createServer } from 'node:net';
import { statfsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { VtbenchError, EXIT } from '../cli/errors.ts';

/** Resolve true when 127.0.0.1:port can be bound (then released). */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** @throws VtbenchError(EXIT.portInUse) naming the option when a port is taken */
export async function checkPorts(ports: { flag: string; port: number }[]): Promise<void> {
  for (const p of ports) {
    if (!(await portFree(p.port))) {
      throw new VtbenchError(`--${p.flag}: port ${p.port} on 127.0.0.1 is in use`, `stop what listens there (ss -ltnp 'sport = :${p.port}') or pick another with --${p.flag} <port>`, EXIT.portInUse);
    }
  }
}

/** @throws VtbenchError(EXIT.prerequisite) when `mvn` is not on PATH */
export function checkMaven(): string {
  try {
    const out = execFileSync('mvn', ['-v'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    return out.split('\n')[0]?.replace(/\x1b\[[0-9;]*m/g, '').trim() ?? 'maven';
  } catch {
    throw new VtbenchError('Maven (mvn) was not found on PATH', 'install Apache Maven 3.8+ (Debian: apt-get install maven)', EXIT.prerequisite);
  }
}

/** @throws VtbenchError(EXIT.prerequisite) when fewer than minBytes are free under dir */
export function checkDisk(dir: string, minBytes = 1 << 30): void {
  const s = statfsSync(dir);
  const free = Number(s.bavail) * Number(s.bsize);
  if (free < minBytes) {
    throw new VtbenchError(`only ${(free / 2 ** 20).toFixed(0)} MiB free under ${dir}`, `free at least ${(minBytes / 2 ** 20).toFixed(0)} MiB`, EXIT.prerequisite);
  }
}
