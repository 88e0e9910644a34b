/**
 * JFR for a target JVM vtbench started (issue 32, tier `jar`): a settings file with only
 * `jdk.VirtualThreadPinned` (at a threshold, with stacks) and `jdk.VirtualThreadSubmitFailed`, the
 * recording dumped with `jcmd <pid> JFR.dump` and read back with the JDK's `jfr print --json`.
 * Facts (DESIGN.md, checked here on Temurin 25.0.3): the JSON holds `recording.events[]`, each
 * `{ type, values: { startTime (ISO, ns), duration (ISO-8601 "PT0.1S"), pinnedReason,
 * blockingOperation, stackTrace: { frames: [{ method: { type: { name: "java/lang/Thread" }, name } }] } } }`;
 * `jfr print` shows 5 frames unless `--stack-depth` says more.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Jdk } from '../jvm/jdk.ts';
import type { RawJfrEvent } from '../../compute/target/pins.ts';

/** The recording's name in the target JVM. */
export const JFR_RECORDING = 'vtbench';
/** Frames `jfr print` keeps per event: enough to pass the JDK's own frames and reach the application's. */
export const JFR_STACK_DEPTH = 24;

/** The `.jfc` settings text: the two virtual-thread events only, pinned at `thresholdMs`. */
export function jfcSettings(thresholdMs: number): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<configuration version="2.0" label="vtbench" description="vtbench target: virtual-thread pinning and submit failures only">',
    `  <event name="jdk.VirtualThreadPinned"><setting name="enabled">true</setting><setting name="stackTrace">true</setting><setting name="threshold">${thresholdMs} ms</setting></event>`,
    '  <event name="jdk.VirtualThreadSubmitFailed"><setting name="enabled">true</setting><setting name="stackTrace">true</setting></event>',
    '</configuration>',
    '',
  ].join('\n');
}

/**
 * Writes the settings file into `dir` and returns the JVM flag that starts the recording with it
 * (`-XX:StartFlightRecording=name=vtbench,settings=<file>`).
 */
export function jfrStartFlag(dir: string, thresholdMs: number): string {
  const file = join(dir, 'vtbench-pinning.jfc');
  writeFileSync(file, jfcSettings(thresholdMs));
  return `-XX:StartFlightRecording=name=${JFR_RECORDING},settings=${file}`;
}

function run(cmd: string, args: string[], timeoutMs: number, maxBuffer = 512 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd.split('/').pop()} ${args.join(' ')}: ${err.message}${stderr ? `\n${stderr.slice(-2000)}` : ''}`));
      else resolve(stdout);
    });
  });
}

/**
 * Copies the JVM's recording so far to `file` (`jcmd <pid> JFR.dump name=vtbench filename=<file>`).
 * @throws Error with jcmd's output when the JVM is gone or has no such recording
 */
export async function dumpJfr(jdk: Jdk, pid: number, file: string, timeoutMs = 60_000): Promise<void> {
  await run(join(jdk.home, 'bin', 'jcmd'), [String(pid), 'JFR.dump', `name=${JFR_RECORDING}`, `filename=${file}`], timeoutMs);
}

/**
 * The two events of a dumped recording, reduced to what the report uses.
 * @throws Error when `jfr print` fails or its output is not the JSON described in the module comment
 */
export async function readJfrEvents(jdk: Jdk, file: string, timeoutMs = 120_000): Promise<RawJfrEvent[]> {
  const out = await run(join(jdk.home, 'bin', 'jfr'), ['print', '--json', '--stack-depth', String(JFR_STACK_DEPTH), '--events', 'jdk.VirtualThreadPinned,jdk.VirtualThreadSubmitFailed', file], timeoutMs);
  return parseJfrJson(out);
}

interface JsonFrame { method?: { name?: string; type?: { name?: string } } }
interface JsonEvent { type?: string; values?: { startTime?: string; duration?: string; pinnedReason?: string; stackTrace?: { frames?: JsonFrame[] } } }

/** ISO-8601 duration of `jfr print` (`PT0.101975354S`, `PT1M2.5S`) → ms; null when not one. */
export function isoDurationMs(s: string | undefined): number | null {
  if (!s) return null;
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$/.exec(s);
  if (!m) return null;
  return (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000;
}

/**
 * `jfr print --json` text → events (pure).
 * @throws Error when the text is not that JSON
 */
export function parseJfrJson(text: string): RawJfrEvent[] {
  const doc = JSON.parse(text) as { recording?: { events?: JsonEvent[] } };
  const events = doc.recording?.events;
  if (!Array.isArray(events)) throw new Error('jfr print --json: no recording.events array');
  const out: RawJfrEvent[] = [];
  for (const e of events) {
    const v = e.values ?? {};
    const startEpochMs = v.startTime ? Date.parse(v.startTime) : NaN;
    if (!Number.isFinite(startEpochMs)) continue;
    const frames = (v.stackTrace?.frames ?? []).map((f) => `${(f.method?.type?.name ?? '?').replace(/\//g, '.')}.${f.method?.name ?? '?'}`);
    out.push({
      type: e.type === 'jdk.VirtualThreadSubmitFailed' ? 'submit-failed' : 'pinned',
      startEpochMs,
      durationMs: isoDurationMs(v.duration),
      reason: v.pinnedReason ?? null,
      frames,
    });
  }
  return out;
}
