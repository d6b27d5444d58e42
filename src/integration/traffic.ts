/**
 * The imported logs of the corpus: every `<prefix>.traffic.json` manifest in the scenarios folder
 * (written by `npm run import -- <log> --out-dir <scenarios folder>`), read and checked, for the
 * traffic summary (`npm run report`, the /traffic/<prefix>/ pages). A manifest that is not JSON or
 * not of the manifest's shape is an error naming the file and the fix (re-import the log); a
 * folder without manifests has no traffic pages.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRAFFIC_SUFFIX, trafficManifestSchema, type TrafficManifest } from '../economics/traffic.ts';
import type { InputError } from '../scenarios/errors.ts';

export function readTrafficManifests(config: { root: string; scenariosDir: string }): { manifests: TrafficManifest[]; errors: InputError[] } {
  const dir = join(config.root, config.scenariosDir);
  const manifests: TrafficManifest[] = [];
  const errors: InputError[] = [];
  if (!existsSync(dir)) return { manifests, errors };
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith(TRAFFIC_SUFFIX))
    .sort()) {
    const file = `${config.scenariosDir}/${name}`;
    const fix = 're-import the log (npm run import -- <log> --out-dir <scenarios folder>), or delete the file with the scenarios it lists';
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    } catch {
      errors.push({ pos: { file, line: 1, col: 1 }, message: 'this traffic manifest is not JSON', fix });
      continue;
    }
    const parsed = trafficManifestSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      errors.push({
        pos: { file, line: 1, col: 1 },
        message: `this traffic manifest is not one the import writes: \`${issue.path.join('.') || '(the document)'}\`: ${issue.message}`,
        fix,
      });
      continue;
    }
    if (`${parsed.data.prefix}${TRAFFIC_SUFFIX}` !== name) {
      errors.push({ pos: { file, line: 1, col: 1 }, message: `this manifest's prefix is "${parsed.data.prefix}", but its file is named ${name}`, fix });
      continue;
    }
    manifests.push(parsed.data);
  }
  return { manifests, errors };
}
