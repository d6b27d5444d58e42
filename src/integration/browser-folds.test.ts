/**
 * Which folds the playground may bundle: built-ins and the example fold are browser-safe; a fold
 * that reaches a Node built-in through its own relative imports is left out, with the chain.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rolldown } from 'rolldown';
import { describe, expect, it, onTestFinished } from 'vitest';
import { browserFolds, browserFoldsModule } from './browser-folds.ts';

describe('browserFolds', () => {
  it('keeps built-ins and the example fold, drops a fold that imports node:', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfe-bf-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'bad.ts'), "import type { Fold } from './types.ts';\nimport { helper } from './helper.ts';\nexport default helper;\n");
    writeFileSync(join(dir, 'helper.ts'), "import { readFileSync } from 'fs';\nexport const helper = readFileSync;\n");
    writeFileSync(join(dir, 'good.ts'), "import * as z from 'zod';\nexport const fold = z;\n");
    const folds = browserFolds(process.cwd(), ['context-protocol', './examples/folds/chat-log.ts', join(dir, 'bad.ts'), join(dir, 'good.ts')]);
    expect(folds.map((f) => f.unsafe)).toEqual([undefined, undefined, `${join(dir, 'bad.ts')} ./helper.ts imports fs`, undefined]);
    const mod = browserFoldsModule(folds, '/x/builtin-folds/index.ts');
    expect(mod).toContain('BUILTIN_FOLDS.get("context-protocol")');
    expect(mod).toContain(JSON.stringify(join(process.cwd(), 'examples/folds/chat-log.ts')));
    expect(mod).not.toContain('bad.ts');
  });

  it('bundles a fold with only a default export, and one with only `fold`, without a bundler warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfe-bf-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'builtins.js'), 'export const BUILTIN_FOLDS = new Map();\n');
    writeFileSync(join(dir, 'by-default.js'), "export default { id: 'by-default' };\n");
    writeFileSync(join(dir, 'by-name.js'), "export const fold = { id: 'by-name' };\n");
    writeFileSync(
      join(dir, 'entry.js'),
      browserFoldsModule(
        [
          { spec: './by-default.js', file: join(dir, 'by-default.js') },
          { spec: './by-name.js', file: join(dir, 'by-name.js') },
        ],
        join(dir, 'builtins.js'),
      ),
    );
    const warnings: string[] = [];
    const bundle = await rolldown({ input: join(dir, 'entry.js'), onwarn: (w) => warnings.push(`${w.code}: ${w.message}`) });
    const { output } = await bundle.generate({ format: 'es' });
    await bundle.close();
    expect(warnings).toEqual([]);
    // and the module finds both folds
    writeFileSync(join(dir, 'out.mjs'), output[0].code);
    const { folds } = (await import(join(dir, 'out.mjs'))) as { folds: Map<string, unknown> };
    expect([...folds.keys()]).toEqual(['by-default', 'by-name']);
  });
});
