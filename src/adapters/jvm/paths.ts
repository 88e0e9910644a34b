/** Where the SUT lives in the repository, resolved from this file (not from the working directory). */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const SUT_DIR = join(REPO_ROOT, 'sut');
/** `<finalName>vtbench-sut</finalName>` in sut/pom.xml */
export const SUT_JAR_NAME = 'vtbench-sut.jar';
/** The Java agent and JMX sampler of `run.mjs target` (issue 32): a Maven project of its own. */
export const AGENT_DIR = join(SUT_DIR, 'agent');
/** `<finalName>vtbench-agent</finalName>` in sut/agent/pom.xml */
export const AGENT_JAR_NAME = 'vtbench-agent.jar';
