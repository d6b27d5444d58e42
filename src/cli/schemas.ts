/**
 * `npm run schemas` — writes schemas/scenario.<fold>.json, the editor schema of scenario files for
 * every configured fold (src/scenarios/json-schema.ts). They are committed so the modeline each
 * scenario starts with (`# yaml-language-server: $schema=../schemas/scenario.<fold>.json`) works
 * in a fresh clone without a build; src/scenarios/json-schema.test.ts fails when they are stale.
 * Only changed files are written; schema files of folds no longer configured are removed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scenarioSchemaFiles } from '../scenarios/json-schema.ts';
import { loadConfig, noOtherArguments, runMain } from './config.ts';

const SCHEMAS_DIR = 'schemas';

runMain(async () => {
  noOtherArguments('schemas', `it writes every configured fold's schema to ${SCHEMAS_DIR}/: run it without arguments`);
  const config = await loadConfig();
  const dir = join(config.root, SCHEMAS_DIR);
  mkdirSync(dir, { recursive: true });
  const files = await scenarioSchemaFiles(config.folds, config.defaultFold);
  let written = 0;
  for (const f of files) {
    const path = join(dir, f.name);
    if (existsSync(path) && readFileSync(path, 'utf8') === f.text) continue;
    writeFileSync(path, f.text);
    console.log(`wrote ${SCHEMAS_DIR}/${f.name}`);
    written++;
  }
  const keep = new Set(files.map((f) => f.name));
  for (const name of readdirSync(dir)) {
    if (/^scenario\..+\.json$/.test(name) && !keep.has(name)) {
      rmSync(join(dir, name));
      console.log(`deleted ${SCHEMAS_DIR}/${name}`);
    }
  }
  console.log(`${files.length} schemas: ${written} written`);
});
