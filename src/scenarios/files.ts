/**
 * The scenario folder on disk: which files are scenarios (in site order) and the corpus loaded from
 * them. The only part of scenario loading that touches the file system — load.ts (texts in, corpus
 * out) stays free of node: imports so that the playground can run it in the browser.
 */
import { constants as bufferConstants } from 'node:buffer';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { UserError } from '../errors.ts';
import { configFile } from '../project.ts';
import { CorpusError, type InputError } from './errors.ts';
import { loadTexts, type CorpusConfig, type LoadedCorpus } from './load.ts';

const SCENARIO_FILE = /\.(ya?ml|md)$/;

/**
 * Why the scenario folder has no scenarios to list because it does not exist yet — a site's first
 * run: the corpus is empty (no scenario pages, nothing to check) and the build, `check` and
 * `fixtures` print this notice; undefined when the folder exists.
 */
export function missingScenariosNotice(config: CorpusConfig): string | undefined {
  if (existsSync(join(config.root, config.scenariosDir))) return undefined;
  return (
    `no scenarios yet: the scenario folder ${config.scenariosDir}/ (the \`scenarios\` option) does not exist in ${config.root}, so there are no scenario pages\n` +
    `  fix: create ${config.scenariosDir}/ and add a scenario file to it (see "Writing a scenario" in the README), or set \`scenarios:\` in ${configFile()} → explainer({…}) to the folder that has them`
  );
}

/**
 * Scenario file paths relative to the root, sorted (the site's order); none while the folder does
 * not exist (missingScenariosNotice says so). A path that is not a folder is an error. A scenario
 * file that is a symlink resolving outside the project is refused (a CorpusError naming each): the
 * corpus is the project's own files, never whatever a link points at.
 */
export function listScenarioFiles(config: CorpusConfig): string[] {
  const dir = join(config.root, config.scenariosDir);
  if (!existsSync(dir)) return [];
  if (!statSync(dir).isDirectory()) {
    throw new UserError(`the scenario folder ${config.scenariosDir} (the \`scenarios\` option) is a file, not a folder`, {
      fix: `set \`scenarios:\` in ${configFile()} → explainer({…}) to the folder of scenario files`,
    });
  }
  const files = readdirSync(dir)
    .filter((n) => SCENARIO_FILE.test(n))
    .sort()
    .map((n) => `${config.scenariosDir}/${n}`);
  // harden: links out of the project are refused.
  const root = realpathSync(config.root);
  const outside: InputError[] = [];
  for (const f of files) {
    let real: string;
    try {
      real = realpathSync(join(config.root, f));
    } catch {
      outside.push({
        pos: { file: f, line: 1, col: 1 },
        message: `${f} is a symlink to ${readlinkSync(join(config.root, f))}, which does not exist`,
        fix: 'remove the link, or put the scenario file itself in the scenarios folder',
      });
      continue;
    }
    if (real !== root && !real.startsWith(root + sep)) {
      outside.push({
        pos: { file: f, line: 1, col: 1 },
        message: `${f} is a symlink to ${real}, outside the project`,
        fix: 'copy the scenario into the scenarios folder instead of linking to it (a scenario is part of the project)',
      });
    }
  }
  if (outside.length) throw new CorpusError(outside);
  return files;
}

/**
 * The most bytes of a file read whole as one text: one JavaScript string holds at most
 * MAX_STRING_LENGTH characters (536,870,888 in Node 24), and UTF-8 never has fewer bytes than
 * characters. A larger file is refused with its size, before Node's "Cannot create a string longer
 * than …" would end the command with a stack trace (scenario files here, captures in import/trace-file.ts).
 */
export const MAX_WHOLE_BYTES = bufferConstants.MAX_STRING_LENGTH;

/** A size as messages say it: "615.7 MB". */
export const megabytes = (bytes: number): string => `${(bytes / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

/** A file too large to read whole, said at its first line: `size` as read ("587.2 MB"), `fix` what to give instead. */
export const tooLargeToRead = (file: string, size: string, fix: string): InputError => ({
  pos: { file, line: 1, col: 1 },
  message: `the file is ${size}: more than one text can hold here (${megabytes(MAX_WHOLE_BYTES)})`,
  fix,
});

const SPLIT_SCENARIO =
  'a scenario is a conversation as written or imported (an imported one of 2,000 requests is under 1 MB): split it, or take this file out of the scenarios folder';

/** The scenario files read as texts, in site order. */
export function readScenarioFiles(config: CorpusConfig): { file: string; text: string }[] {
  const files = listScenarioFiles(config);
  const huge = files.flatMap((file) => {
    const size = statSync(join(config.root, file)).size;
    return size > MAX_WHOLE_BYTES ? [tooLargeToRead(file, megabytes(size), SPLIT_SCENARIO)] : [];
  });
  if (huge.length) throw new CorpusError(huge);
  return files.map((file) => ({ file, text: readFileSync(join(config.root, file), 'utf8') }));
}

export function loadCorpus(config: CorpusConfig): Promise<LoadedCorpus> {
  return loadTexts(readScenarioFiles(config), config);
}
