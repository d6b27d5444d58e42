/**
 * The project facts behind every message that names a command or the config file: this
 * repository (its package name) runs `npm run check`, a host site `npx prompt-fold check`; the
 * config file named is the one the project has.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configFile, project, runCommand, runCommandWithArgs, setProject } from '../project.ts';
import { readProjectFacts, useProject } from './project-facts.ts';

const before = project();
let dir: string;
afterEach(() => {
  setProject(before);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('project facts', () => {
  it('this repository: npm scripts and its astro.config.mjs', () => {
    expect(useProject(process.cwd())).toEqual({ host: false, configFile: 'astro.config.mjs' });
    expect(runCommand('fixtures')).toBe('npm run fixtures');
    expect(runCommandWithArgs('report')).toBe('npm run report --');
  });

  it('a host site: the package’s bin and the config file it has', () => {
    dir = mkdtempSync(join(tmpdir(), 'pfe-host-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'acme-docs' }));
    writeFileSync(join(dir, 'astro.config.ts'), 'export default {};\n');
    expect(useProject(dir)).toEqual({ host: true, configFile: 'astro.config.ts' });
    expect(runCommand('check')).toBe('npx prompt-fold check');
    expect(runCommand('preview:build')).toBe('npx prompt-fold preview build');
    expect(runCommandWithArgs('report')).toBe('npx prompt-fold report');
    expect(configFile()).toBe('astro.config.ts');
  });

  it('a folder without package.json or config is a host with the default config name', () => {
    dir = mkdtempSync(join(tmpdir(), 'pfe-host-'));
    expect(readProjectFacts(dir)).toEqual({ host: true, configFile: 'astro.config.mjs' });
  });
});
