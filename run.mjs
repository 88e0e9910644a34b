#!/usr/bin/env zx
// vtbench entry point: `npx zx run.mjs --help`.
// zx runs this file; the pipeline itself is TypeScript (src/), loaded through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./src/cli/main.ts');
const { realDeps } = await import('./src/cli/deps.ts');

// zx passes: node, zx's cli, this file, ...user args
const self = process.argv.findIndex((a) => a.endsWith('run.mjs'));
const args = process.argv.slice(self + 1);
// When whoever reads our output is gone (npx killed, a closed pipe), keep stopping cleanly instead
// of dying on EPIPE in the middle of stopping the children.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
  });
}
const code = await main(args, { stdout: process.stdout, stderr: process.stderr }, realDeps());
process.exit(code);
