/**
 * `npm run test:sut` = `node --import tsx src/cli/mvn-cli.ts test [maven args...]`: runs
 * `mvn -f sut/pom.xml <args>` with the JDK found by {@link findJdk}, streaming Maven's output, and
 * exits with Maven's exit code. `--agent` first: the same for the agent's project, sut/agent/pom.xml
 * (`npm run test:agent`).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { EXIT, VtbenchError } from '../types/errors.ts';
import { findJdk, jdkEnv, requireSutJdk, SUT_MIN_JDK } from '../adapters/jvm/jdk.ts';
import { AGENT_DIR, SUT_DIR } from '../adapters/jvm/paths.ts';

async function main(argv: readonly string[]): Promise<number> {
  const agent = argv[0] === '--agent';
  const rest = agent ? argv.slice(1) : argv;
  const goals = rest.length > 0 ? rest : ['test'];
  const dir = agent ? AGENT_DIR : SUT_DIR;
  const rel = agent ? 'sut/agent/pom.xml' : 'sut/pom.xml';
  const jdk = findJdk(SUT_MIN_JDK);
  requireSutJdk(jdk);
  process.stderr.write(`vtbench: mvn -B -f ${rel} ${goals.join(' ')} (JAVA_HOME=${jdk.home}, ${jdk.vendor} ${jdk.version})\n`);
  return new Promise((resolve, reject) => {
    const child = spawn('mvn', ['-B', '-f', join(dir, 'pom.xml'), ...goals], { env: jdkEnv(jdk), stdio: 'inherit' });
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new VtbenchError('Maven (mvn) not found on PATH', 'install Maven 3.8+ (apt-get install maven)', EXIT.prerequisite) : err),
    );
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 + 15 : 1)));
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof VtbenchError) {
      process.stderr.write(`error: ${err.message}\n  hint: ${err.hint}\n`);
      process.exit(err.exitCode);
    }
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
