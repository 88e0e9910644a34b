/**
 * The JMX sampler of a target JVM (issue 32, tiers `jar`/`agent`): a small JVM of our own
 * (sut/agent `dev.vtbench.agent.JmxSampler`) connects to the target's local JMX port and prints one
 * JSON line every interval (its schema: sut/agent/README.md). This module starts it, parses its lines
 * into JmxSample and keeps them in memory, in arrival order.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import type { Jdk } from '../jvm/jdk.ts';
import type { JmxSample, TargetJvmInfo } from '../../types/target.ts';

type Num = number | null;
const num = (x: unknown): Num => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : null);

/**
 * One sampler line → a sample, its `info`, its end, or null for a line that is none of these (pure).
 * Negative or missing numbers (an MBean's −1 "unknown") become null.
 */
export function parseSamplerLine(line: string): { sample: JmxSample } | { info: TargetJvmInfo } | { end: string } | { error: string } | null {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (o['info'] && typeof o['info'] === 'object') {
    const i = o['info'] as Record<string, unknown>;
    return {
      info: {
        vmVendor: String(i['vmVendor'] ?? ''),
        vmVersion: String(i['vmVersion'] ?? ''),
        javaVersion: String(i['javaVersion'] ?? ''),
        inputArguments: Array.isArray(i['inputArguments']) ? (i['inputArguments'] as unknown[]).map(String) : [],
        availableProcessors: Number(i['availableProcessors'] ?? 0),
        pid: Number(i['pid'] ?? 0),
      },
    };
  }
  if (typeof o['end'] === 'string') return { end: o['end'] };
  if (typeof o['error'] === 'string') return { error: o['error'] };
  if (typeof o['t'] !== 'number') return null;
  const vt = o['vt'] as Record<string, unknown> | null | undefined;
  const tomcat = Array.isArray(o['tomcat']) ? (o['tomcat'] as Record<string, unknown>[]) : [];
  const hikari = Array.isArray(o['hikari']) ? (o['hikari'] as Record<string, unknown>[]) : [];
  return {
    sample: {
      tEpochMs: o['t'],
      cpuNs: num(o['cpuNs']),
      cpuLoad: num(o['cpuLoad']),
      heapUsedBytes: num(o['heapUsed']),
      heapCommittedBytes: num(o['heapCommitted']),
      rssBytes: num(o['rss']),
      threads: num(o['threads']),
      gcCount: num(o['gcCount']),
      gcTimeMs: num(o['gcTimeMs']),
      vt: vt ? { parallelism: num(vt['parallelism']), poolSize: num(vt['poolSize']), mounted: num(vt['mounted']), queued: num(vt['queued']) } : null,
      tomcat: tomcat.map((t) => ({ name: String(t['name'] ?? ''), busy: num(t['busy']), threads: num(t['threads']), max: num(t['max']), conns: num(t['conns']), maxConns: num(t['maxConns']) })),
      hikari: hikari.map((h) => ({ pool: String(h['pool'] ?? ''), active: num(h['active']), idle: num(h['idle']), pending: num(h['pending']), total: num(h['total']), max: num(h['max']) })),
      source: 'jmx',
    },
  };
}

/** A running sampler. */
export interface JmxSamplerHandle {
  pid: number;
  /** the target JVM as first seen; rejects when the sampler ends or errs before its info line */
  info: Promise<TargetJvmInfo>;
  /** every sample so far, in arrival order (the array grows) */
  samples: JmxSample[];
  /** why it ended (`disconnected`, an error), or null while it runs */
  ended(): string | null;
  stop(): Promise<void>;
}

/** The JVM flags that open a local, unauthenticated JMX port on 127.0.0.1 only (registry and RMI on one port). */
export function jmxFlags(port: number): string[] {
  return [
    `-Dcom.sun.management.jmxremote.port=${port}`,
    `-Dcom.sun.management.jmxremote.rmi.port=${port}`,
    '-Dcom.sun.management.jmxremote.authenticate=false',
    '-Dcom.sun.management.jmxremote.ssl=false',
    '-Dcom.sun.management.jmxremote.host=127.0.0.1',
    '-Djava.rmi.server.hostname=127.0.0.1',
  ];
}

/**
 * Starts the sampler against `127.0.0.1:<jmxPort>`; the target's RSS is read from /proc/<targetPid>.
 * @param agentJar sut/agent/target/vtbench-agent.jar
 */
export function startJmxSampler(o: { jdk: Jdk; agentJar: string; jmxPort: number; targetPid: number; intervalMs: number; logFile?: string }): JmxSamplerHandle {
  const child: ChildProcess = spawn(join(o.jdk.home, 'bin', 'java'), ['-Xmx64m', '-XX:TieredStopAtLevel=1', '-cp', o.agentJar, 'dev.vtbench.agent.JmxSampler', '--jmx', `127.0.0.1:${o.jmxPort}`, '--interval-ms', String(o.intervalMs), '--pid', String(o.targetPid)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const samples: JmxSample[] = [];
  let endReason: string | null = null;
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  let resolveInfo!: (i: TargetJvmInfo) => void;
  let rejectInfo!: (e: Error) => void;
  const info = new Promise<TargetJvmInfo>((res, rej) => ((resolveInfo = res), (rejectInfo = rej)));
  info.catch(() => undefined);
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    const p = parseSamplerLine(line);
    if (p === null) return;
    if ('sample' in p) samples.push(p.sample);
    else if ('info' in p) resolveInfo(p.info);
    else if ('end' in p) endReason = p.end;
    else endReason = `error: ${p.error}`;
  });
  child.once('exit', (code, signal) => {
    endReason ??= `exited (${code ?? signal})${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`;
    rejectInfo(new Error(`the JMX sampler ended before it read the target JVM: ${endReason}`));
  });
  return {
    pid: child.pid ?? -1,
    info,
    samples,
    ended: () => endReason,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await new Promise<void>((r) => {
        const t = setTimeout(() => (child.kill('SIGKILL'), r()), 3000);
        child.once('exit', () => (clearTimeout(t), r()));
      });
    },
  };
}
