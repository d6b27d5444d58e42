/**
 * Test support: a hash of a project copy's scenario folder as it is on disk — every file's path and
 * bytes. A corpus render reads nothing else but the code and the config, so within one code state
 * the same hash is the same render: review-in-process.ts and review-runner.ts keep one render per
 * hash, and the fixtures, the summary and the report of one commit read it instead of rendering
 * the same files two or three times.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function scenariosHash(folder: string): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(folder, name);
    if (statSync(path).isFile()) hash.update(`${name}\0`).update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}
