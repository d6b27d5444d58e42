/**
 * Which project the explainer runs in, for every message that names a command or the config file:
 * this repository (its npm scripts: `npm run check`) or a host site that installed the package
 * (its `prompt-fold` bin: `npx prompt-fold check`), and the astro config file the project really
 * has (astro.config.mjs, .ts, …). The entry points that know the project root set it once
 * (integration/project-facts.ts: the integration's config hook, the command line's config reader;
 * the playground from the integration's config module); it is kept on globalThis, so every copy
 * of this module in the process (a build loads several) agrees. Pure — it also runs in the browser
 * — and importable from every layer. Until set: this repository's facts.
 */

export interface ProjectFacts {
  /** A host site that installed the package (false: this repository, whose package name is the package's). */
  host: boolean;
  /** The project's astro config file name, e.g. `astro.config.ts`. */
  configFile: string;
}

const KEY = Symbol.for('prompt-fold-explainer/project');
const REPOSITORY: ProjectFacts = { host: false, configFile: 'astro.config.mjs' };

type Holder = { [KEY]?: ProjectFacts };

export function setProject(facts: ProjectFacts): void {
  (globalThis as Holder)[KEY] = facts;
}

export const project = (): ProjectFacts => (globalThis as Holder)[KEY] ?? REPOSITORY;

/**
 * How the project runs one of the explainer's commands (`check`, `fixtures`, `report`, `import`,
 * `schemas`, `pr-summary`, `sync`, `preview:build` …): `npm run check` here, `npx prompt-fold check` in a host.
 */
export const runCommand = (name: string): string => (project().host ? `npx prompt-fold ${name.replace(':', ' ')}` : `npm run ${name}`);

/** The same, ready for arguments: `npm run sync --` here (npm passes what follows on), `npx prompt-fold sync` in a host. */
export const runCommandWithArgs = (name: string): string => (project().host ? runCommand(name) : `${runCommand(name)} --`);

/** The project's astro config file name. */
export const configFile = (): string => project().configFile;
