/**
 * Issue 34, defects 5 and 6, in the multi-host flow: the pods' `shard` runs reset the external
 * mock and may run the SUT's jobs, which answer only the run's control token. The token reaches
 * each pod from a Secret as VTBENCH_CONTROL_TOKEN in its environment — never in the Job's
 * command, the manifests or a `kubectl` argument (the README creates the Secret from the shell's
 * environment through a file descriptor).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { k8sSpecOf } from '../../src/cli/multihost.ts';
import { jobManifest, readme } from '../../src/plan/k8s-manifests.ts';
import { STUDIES } from '../../src/studies/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARGS = { study: '000', profile: 'smoke', variants: 'fixed', shards: '2', sutUrl: 'http://vtbench-sut.bench.svc:19080', mockUrl: 'http://vtbench-mock.bench.svc:19000' };

test('the Job gives every pod VTBENCH_CONTROL_TOKEN from the Secret <name>-control; it still validates', () => {
  const { spec } = k8sSpecOf(ARGS, STUDIES);
  const job = jobManifest(spec) as { spec: { template: { spec: { containers: { env?: unknown[]; command: string[] }[] } } } };
  const c = job.spec.template.spec.containers[0]!;
  assert.deepEqual(c.env, [{ name: 'VTBENCH_CONTROL_TOKEN', valueFrom: { secretKeyRef: { name: `${spec.name}-control`, key: 'token' } } }]);
  assert.ok(!c.command.join(' ').includes('TOKEN'), 'not on the command line');
  const schema = JSON.parse(readFileSync(join(ROOT, 'schema', 'k8s', 'job-batch-v1.json'), 'utf8')) as object;
  const v = new Ajv({ allErrors: true, strict: false }).compile(schema);
  assert.ok(v(job), JSON.stringify(v.errors));
});

test('the README creates that Secret from the shell\'s VTBENCH_CONTROL_TOKEN without putting it on a command line', () => {
  const { spec, outDir } = k8sSpecOf(ARGS, STUDIES);
  const text = readme(spec, outDir);
  assert.match(text, new RegExp(`kubectl create secret generic ${spec.name}-control --from-env-file=<\\(printf 'token=%s\\\\n' "\\$VTBENCH_CONTROL_TOKEN"\\)`));
  assert.match(text, /the same VTBENCH_CONTROL_TOKEN the SUT and the mock were started with/);
});
