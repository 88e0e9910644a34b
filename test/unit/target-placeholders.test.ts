/**
 * Placeholders for a target's downstreams (src/compute/target/placeholders.ts): which are used, the
 * checks made before anything starts (a missing downstream, {dbPassword} in an argument) and the fill.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPlaceholders, fillPlaceholders, placeholdersIn, redactArgs, shortenPaths } from '../../src/compute/target/placeholders.ts';

test('placeholdersIn finds each known placeholder once, in order, and ignores Spring ${…} and unknown names', () => {
  assert.deepEqual(placeholdersIn('--x={dbUrl}&u={dbUser}&again={dbUrl}'), ['dbUrl', 'dbUser']);
  assert.deepEqual(placeholdersIn('--a=${HOME} {other} {mockurl}'), []);
});

test('checkPlaceholders: a placeholder needs its downstream, naming the option and the flag that provides it', () => {
  const db = new Set(['dbUrl', 'dbUser', 'dbPassword'] as const);
  assert.doesNotThrow(() => checkPlaceholders([{ option: '--target-arg --spring.datasource.url={dbUrl}', value: '--spring.datasource.url={dbUrl}' }], db));
  assert.throws(() => checkPlaceholders([{ option: '--target-arg --spring.ai.openai.base-url={mockUrl}', value: '--spring.ai.openai.base-url={mockUrl}' }], db),
    (e: Error & { hint?: string }) => /--target-arg .*\{mockUrl\} needs --target-mock/.test(e.message) && /--target-mock/.test(e.hint ?? ''));
  assert.doesNotThrow(() => checkPlaceholders([{ option: '--target-arg x', value: '--a={mockUrl}/v1' }], new Set(['mockUrl'] as const)));
});

test('checkPlaceholders: {dbPassword} only in --target-env, never in an argument ps shows', () => {
  const db = new Set(['dbUrl', 'dbUser', 'dbPassword'] as const);
  assert.doesNotThrow(() => checkPlaceholders([{ option: '--target-env SPRING_DATASOURCE_PASSWORD', value: '{dbPassword}' }], db));
  assert.throws(() => checkPlaceholders([{ option: '--target-arg --spring.datasource.password=***', value: '--spring.datasource.password={dbPassword}' }], db), /\{dbPassword\} in an argument/);
  assert.throws(() => checkPlaceholders([{ option: '--target-jvm-arg -Dpw=***', value: '-Dpw={dbPassword}' }], db), /\{dbPassword\} in an argument/);  for (const n of ['JAVA_TOOL_OPTIONS', 'JDK_JAVA_OPTIONS', '_JAVA_OPTIONS']) {
    assert.throws(() => checkPlaceholders([{ option: `--target-env ${n}`, value: '-Dspring.datasource.password={dbPassword}' }], db), /a variable the JVM reads as options/, n);
  }
  assert.doesNotThrow(() => checkPlaceholders([{ option: '--target-env JAVA_TOOL_OPTIONS', value: '-Dspring.datasource.url={dbUrl}' }], db), 'the URL is no secret');
});

test('redactArgs: a system property or an option whose key names a secret is recorded as ***', () => {
  assert.deepEqual(redactArgs(['-Dspring.datasource.password=hunter2', '-Xmx1g', '-Dmy.TOKEN=t', '--db.secret=s', '-Dx=password']), ['-Dspring.datasource.password=***', '-Xmx1g', '-Dmy.TOKEN=***', '--db.secret=***', '-Dx=password']);
});

test('fillPlaceholders replaces every use; a value missing is an error, not an empty string', () => {
  assert.equal(fillPlaceholders('--u={mockUrl}/v1 --d={dbUrl}', { mockUrl: 'http://127.0.0.1:4000', dbUrl: 'jdbc:postgresql://127.0.0.1:5/t' }), '--u=http://127.0.0.1:4000/v1 --d=jdbc:postgresql://127.0.0.1:5/t');
  assert.equal(fillPlaceholders('plain', {}), 'plain');
  assert.throws(() => fillPlaceholders('{dbUser}', { mockUrl: 'x' }), /\{dbUser\} has no value/);
});

test('shortenPaths: absolute paths become …/<last part>, wherever they start in an argument; other text stays', () => {
  assert.equal(shortenPaths('/work/petclinic/target/app.jar'), '…/app.jar');
  assert.equal(shortenPaths('-javaagent:/home/me/agent/vtbench-agent.jar=port=1,header=x'), '-javaagent:…/vtbench-agent.jar=port=1,header=x');
  assert.equal(shortenPaths('-XX:StartFlightRecording=name=vtbench,settings=/tmp/run/logs/jfr/p.jfc'), '-XX:StartFlightRecording=name=vtbench,settings=…/p.jfc');
  assert.equal(shortenPaths('-Xmx512m'), '-Xmx512m');
  assert.equal(shortenPaths('requests.jsonl'), 'requests.jsonl');
  assert.equal(shortenPaths('http://127.0.0.1:8080/v1'), 'http://127.0.0.1:8080/v1');
});
