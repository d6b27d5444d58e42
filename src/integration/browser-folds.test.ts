/**
 * Which folds the playground may bundle: built-ins and the example fold are browser-safe; a fold
 * that reaches a Node built-in through its own relative imports is left out, with the chain.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    const mod = browserFoldsModule(folds, '/x/folds/index.ts');
    expect(mod).toContain('BUILTIN_FOLDS.get("context-protocol")');
    expect(mod).toContain(JSON.stringify(join(process.cwd(), 'examples/folds/chat-log.ts')));
    expect(mod).not.toContain('bad.ts');
  });
});
