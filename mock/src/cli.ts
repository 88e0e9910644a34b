/**
 * `npm run mock -- [options]`: runs the mock LLM in this process until SIGTERM/SIGINT, or, with
 * `--parent-pid <pid>`, until that process exits (checked every second; one line on stderr, exit 0).
 * Control calls (`POST /stats/reset`) need the token of VTBENCH_CONTROL_TOKEN in this process's
 * environment, sent as the `x-vtbench-token` header; without it they are refused (mock/src/server.ts).
 * Prints one start line (URL, effective config, timeouts). Bad input prints one line naming the
 * option and the fix and exits non-zero: 2 = invalid option or value, 4 = port in use.
 */
import { Command, CommanderError } from 'commander';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';
import { LISTEN_OPTIONS, MOCK_OPTIONS, PROCESS_OPTIONS, parseOptionValue, type OptionSpec } from './config.ts';
import { startMock, type RunningMock } from './server.ts';
import { processRunning, watchProcess } from '../../src/adapters/process/parent-watch.ts';
import { nodeFlagsOf } from '../../src/adapters/process/node-flags.ts';
import { CONTROL_TOKEN_ENV } from '../../src/adapters/process/control-token.ts';

const NAME = 'vtbench-mock';
const HELP_HINT = 'run `npm run mock -- --help` for the options';

/** After the parent is gone: how long closing may wait for in-flight requests (a hung one never ends) before the exit. */
const PARENT_GONE_EXIT_MS = 5_000;

function buildProgram(): Command {
  const program = new Command(NAME)
    .description('OpenAI-compatible mock LLM (POST /v1/chat/completions, GET /v1/models, /health, /stats)')
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .allowExcessArguments(false);
  const all: Record<string, OptionSpec<unknown>> = { ...LISTEN_OPTIONS, ...PROCESS_OPTIONS, ...MOCK_OPTIONS };
  for (const spec of Object.values(all)) {
    const flags = spec.arg ? `${spec.flag} <${spec.arg}>` : spec.flag;
    program.option(flags, `${spec.description} (default: ${String(spec.default)})`);
  }
  return program;
}

/** Parses argv into typed listen options, the parent pid (0 = none) and mock config (defaults left to the resolvers). */
export function parseArgs(argv: readonly string[]): { port: number; host: string; parentPid: number; config: Record<string, unknown> } {
  const program = buildProgram();
  try {
    program.parse(argv as string[], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help') throw err;
      const msg = err.message.replace(/^error: /, '').split('\n')[0] ?? err.message;
      throw new VtbenchError(msg, HELP_HINT, EXIT.usage);
    }
    throw err;
  }
  const given = program.opts<Record<string, string | boolean>>();
  const config: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(MOCK_OPTIONS) as [string, OptionSpec<unknown>][]) {
    const raw = given[key];
    if (raw !== undefined) config[key] = parseOptionValue(spec, raw);
  }
  const port = given.port === undefined ? LISTEN_OPTIONS.port.default : parseOptionValue(LISTEN_OPTIONS.port, given.port);
  const host = given.host === undefined ? LISTEN_OPTIONS.host.default : parseOptionValue(LISTEN_OPTIONS.host, given.host);
  const parentPid = given.parentPid === undefined ? PROCESS_OPTIONS.parentPid.default : parseOptionValue(PROCESS_OPTIONS.parentPid, given.parentPid);
  return { port, host, parentPid, config };
}

async function main(argv: readonly string[]): Promise<void> {
  const { port, host, parentPid, config } = parseArgs(argv);
  if (parentPid > 0 && !processRunning(parentPid)) {
    throw new VtbenchError(`--parent-pid ${parentPid} is not a running process`, 'give the pid of the process whose exit should stop the mock, or leave --parent-pid out', EXIT.usage);
  }
  let mock: RunningMock;
  try {
    // the run's token comes in the environment, never on the command line (ps shows that to every local user)
    mock = await startMock({ ...config, port, host, controlToken: process.env[CONTROL_TOKEN_ENV] || null });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new VtbenchError(`--port ${port} is in use on ${host}`, 'stop what holds it or choose another --port (0 = any free port)', EXIT.portInUse);
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new VtbenchError(`--host ${host} is not an address of this machine`, 'use --host 127.0.0.1', EXIT.usage);
    }
    if (code === 'EACCES') {
      throw new VtbenchError(`--port ${port} needs privileges`, 'choose --port 1024 or above (0 = any free port)', EXIT.usage);
    }
    throw err;
  }
  process.stdout.write(
    `${NAME} listening on ${mock.url} pid=${process.pid} config=${JSON.stringify(mock.config)} timeouts=${JSON.stringify(mock.timeouts)} node=${JSON.stringify(nodeFlagsOf())}\n`,
  );
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    mock.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  if (parentPid > 0) {
    watchProcess(parentPid, (reason) => {
      process.stderr.write(`${NAME}: stopping: ${reason} (--parent-pid ${parentPid})\n`);
      setTimeout(() => process.exit(0), PARENT_GONE_EXIT_MS).unref();
      stop();
    });
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof CommanderError) {
    // --help / --version: commander has printed it
    process.exit(err.exitCode);
  }
  if (err instanceof VtbenchError) {
    process.stderr.write(`${NAME}: error: ${err.message} (fix: ${err.hint})\n`);
    process.exit(err.exitCode);
  }
  process.stderr.write(`${NAME}: error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
