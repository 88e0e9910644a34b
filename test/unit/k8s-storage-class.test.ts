/**
 * Issue 34, defect 9: `k8s --storage-class` was not validated (quotes and a newline went into
 * pvc.json and the README's commands). It is checked as the other names are: a storage class is a
 * Kubernetes object name, a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', at most
 * 253 characters); the image reference likewise may hold no quote, space or control character.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { k8sSpecOf } from '../../src/cli/multihost.ts';
import { isDnsSubdomain, pvcManifest } from '../../src/plan/k8s-manifests.ts';
import { STUDIES } from '../../src/studies/index.ts';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';

const ARGS = { study: '000', profile: 'smoke', variants: 'fixed', shards: '2', sutUrl: 'http://vtbench-sut.bench.svc:19080', mockUrl: 'http://vtbench-mock.bench.svc:19000' };
const refused = (o: Record<string, string>, re: RegExp) => assert.throws(() => k8sSpecOf(o, STUDIES), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && re.test(e.message), JSON.stringify(o));

test('k8s --storage-class with a quote, a newline, upper case or spaces is refused naming the option', () => {
  for (const bad of ['fast"', 'fast\nkind: Secret', 'Fast', 'fast ssd', '-fast', 'fast.', '', 'a'.repeat(254)]) {
    refused({ ...ARGS, storageClass: bad }, /--storage-class .* is not a DNS-1123 subdomain/);
  }
});

test('k8s --image with a quote, a space or a newline is refused', () => {
  for (const bad of ['img"x', 'img\nx', 'img x', "img'x"]) refused({ ...ARGS, image: bad }, /--image .* is not an image reference/);
});

test('a valid storage class reaches pvc.json as given', () => {
  for (const good of ['standard', 'csi-nfs.rwx', 'gp3', `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`]) assert.ok(isDnsSubdomain(good), good);
  const { spec } = k8sSpecOf({ ...ARGS, storageClass: 'csi-nfs.rwx', image: 'registry.example.com:5000/team/vtbench-loadgen:0.1.0@sha256:' + 'a'.repeat(64) }, STUDIES);
  assert.equal((pvcManifest(spec) as { spec: { storageClassName?: string } }).spec.storageClassName, 'csi-nfs.rwx');
});
