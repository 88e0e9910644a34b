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
const code = await main(args, { stdout: process.stdout, stderr: process.stderr }, realDeps());
process.exit(code);
