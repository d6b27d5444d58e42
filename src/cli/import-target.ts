/**
 * Where an import may write: `npm run check`, `npm run fixtures` and the site read the scenario
 * files at the top of the scenarios folder only (scenarios/files.ts). A target inside a subfolder
 * of it would be written, then silently ignored by all three — refused, with the fix. A target
 * outside the scenarios folder is a deliberate scratch copy: written, and the report says that
 * check and the site do not read it.
 */
import { dirname, isAbsolute, join, relative } from 'node:path';
import type { ExplainerConfig } from '../integration/options.ts';
import { UsageError } from './config.ts';

/** Whether `folder` (absolute) is the scenarios folder, a folder inside it (refused), or outside it. */
export function scenarioFolder(config: ExplainerConfig, folder: string, option: string): 'scenarios' | 'outside' {
  const rel = relative(join(config.root, config.scenariosDir), folder);
  if (rel === '') return 'scenarios';
  if (rel.startsWith('..') || isAbsolute(rel)) return 'outside';
  throw new UsageError(
    `${option} names a folder inside ${config.scenariosDir}/ (${config.scenariosDir}/${rel.split('\\').join('/')}), which \`check\`, \`fixtures\` and the site do not read: they read the scenario files at the top of ${config.scenariosDir}/ only`,
    {
      fix: `write to ${config.scenariosDir}/ itself (${option === '--out-dir' ? `--out-dir ${config.scenariosDir}: the --id prefix keeps one import's scenarios together, ${config.scenariosDir}/<id>-<conversation>.yaml` : `--out ${config.scenariosDir}/<id>.yaml`}), or to a folder outside it to keep a copy the site does not show`,
    },
  );
}

/** The folder a scenario file (absolute) is written to. */
export const folderOf = (file: string): string => dirname(file);

/** The report's note for a copy written outside the scenarios folder. */
export const outsideNote = (config: ExplainerConfig): string =>
  `note: this is outside ${config.scenariosDir}/, so \`check\`, \`fixtures\` and the site do not read it; move the file(s) into ${config.scenariosDir}/ to include them`;
