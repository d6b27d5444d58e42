/**
 * Which scenarios a re-import into an `--out-dir` leaves stale: those the previous import of the
 * same prefix wrote (listed in its `<prefix>.traffic.json` manifest — the marker of what an import
 * wrote) whose conversation the new import no longer has. Each is to be removed, or kept when a
 * person wrote it (no import header: the file was replaced by hand) or added to it (`annotations:`
 * or `expect:`, which a re-import of a present conversation would keep — removing them would lose
 * that work silently). A scenario no manifest lists is never considered. Reads only; the command
 * removes after everything else is written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { trafficManifestSchema } from '../economics/traffic.ts';
import { IMPORT_HEADER } from '../import/scenario.ts';

export interface Stale {
  file: string;
  id: string;
  by: string;
  key: string;
}

export function staleScenarios(manifestPath: string, outDir: string, present: ReadonlySet<string>): { remove: Stale[]; keep: (Stale & { why: string })[] } {
  const remove: Stale[] = [];
  const keep: (Stale & { why: string })[] = [];
  if (!existsSync(manifestPath)) return { remove, keep };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch {
    return { remove, keep };
  }
  const manifest = trafficManifestSchema.safeParse(raw);
  // A manifest that is not one this command wrote names nothing to remove.
  if (!manifest.success) return { remove, keep };
  for (const c of manifest.data.conversations) {
    if (present.has(c.id) || !/^[a-z0-9][a-z0-9_-]*$/.test(c.id)) continue;
    const file = join(outDir, `${c.id}.yaml`);
    if (!existsSync(file)) continue;
    const s: Stale = { file, id: c.id, by: c.groupedBy, key: c.key };
    const text = readFileSync(file, 'utf8');
    if (!text.split('\n', 2).some((l) => l.startsWith(IMPORT_HEADER))) {
      keep.push({ ...s, why: 'it was not written by an import' });
      continue;
    }
    const doc = parseDocument(text);
    const added = (['annotations', 'expect'] as const).filter((k) => doc.has(k));
    if (added.length) keep.push({ ...s, why: `it has ${added.join(' and ')} a person added` });
    else remove.push(s);
  }
  return { remove, keep };
}
