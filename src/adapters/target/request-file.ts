/**
 * Reads the request file of `run.mjs target --requests <file>` (issue 32): its bytes, their SHA-256
 * and the requests parsed and checked by src/compute/target/request-file.ts (format there).
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { EXIT, VtbenchError } from '../../types/errors.ts';
import type { RequestMix } from '../../types/target.ts';
import { REQUEST_FILE_HINT, parseRequestFile } from '../../compute/target/request-file.ts';

/**
 * The request mix of a run from its request file.
 * @param path the file as the user gave it (stored as `file`, relative paths against the working directory)
 * @param env the environment `${env:NAME}` header references are checked against (default process.env;
 *   values are never copied into the mix)
 * @returns `{ file: path, sha256: hex SHA-256 of the bytes, requests }`
 * @throws VtbenchError (EXIT.usage): the file cannot be read (`--requests <path>: cannot read it (<code>)`),
 *   is not UTF-8, or any error of parseRequestFile (`<file> line <n>: …`)
 */
export function readRequestFile(path: string, env: NodeJS.ProcessEnv = process.env): RequestMix {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new VtbenchError(`--requests ${path}: cannot read it (${code})`, `give the path of a readable file; ${REQUEST_FILE_HINT}`, EXIT.usage);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new VtbenchError(`--requests ${path}: not UTF-8 text`, REQUEST_FILE_HINT, EXIT.usage);
  }
  return { file: path, sha256: createHash('sha256').update(bytes).digest('hex'), requests: parseRequestFile(text, path, env) };
}
