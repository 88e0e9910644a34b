/** Where the SUT lives in the repository, resolved from this file (not from the working directory). */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const SUT_DIR = join(REPO_ROOT, 'sut');
/** `<finalName>vtbench-sut</finalName>` in sut/pom.xml */
export const SUT_JAR_NAME = 'vtbench-sut.jar';
