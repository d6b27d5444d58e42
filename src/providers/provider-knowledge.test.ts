/**
 * `src/providers/` is the one folder that knows a provider (CONTRIBUTING): a source file
 * elsewhere (tests and docs aside) that names a provider or a model id in its code fails this test.
 * Comments may name them. STILL_TO_MOVE lists files that still do, each to be moved onto the
 * adapters (empty since 2026-12-06: every one has moved); the test also fails when a listed file no
 * longer names one (take it off the list), so the list only shrinks.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A provider's name or a model id's shape, in code. `claude-code` has a model id's shape and is
 * none: it is an agent's name, the `--format` id of its transcripts (src/import/captures/claude-code.ts),
 * as `codex` is Codex's; which provider format that agent sends is its adapter's (`sentBy`).
 */
const NAMES = /\b(openai|anthropic|bedrock|gemini|claude-(?!code\b)[a-z0-9]|gpt-[0-9])/i;

/** The code of a file: block and line comments removed (a `//` inside a string such as a URL is kept). */
const code = (s: string): string => s.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** Files outside src/providers/ that still name a provider or a model id in code (2026-12-06), to be moved onto the adapters. */
const STILL_TO_MOVE: readonly string[] = [];

function sources(dir: string, out: string[] = []): string[] {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) {
      if (p !== join('src', 'providers')) sources(p, out);
    } else if (/\.(ts|astro)$/.test(f) && !/\.test\.ts$/.test(f)) out.push(p.split('\\').join('/'));
  }
  return out;
}

describe('only src/providers/ names a provider', () => {
  const naming = sources('src')
    .filter((p) => NAMES.test(code(readFileSync(p, 'utf8'))))
    .sort();

  it('no file outside src/providers/ newly names a provider or a model id in code', () => {
    const fresh = naming.filter((p) => !STILL_TO_MOVE.includes(p));
    expect(fresh, 'move the provider knowledge onto its adapter (src/providers/<provider>.ts or its folder) and ask the registry for it').toEqual([]);
  });

  it('every file on the list still does (a file that no longer does comes off the list)', () => {
    expect(STILL_TO_MOVE.filter((p) => !naming.includes(p))).toEqual([]);
  });

  it('the check sees a name in code and not in a comment', () => {
    expect(NAMES.test(code("const id = 'gpt-5';"))).toBe(true);
    expect(NAMES.test(code('// the OpenAI view\nconst x = 1;'))).toBe(false);
    expect(NAMES.test(code("const url = 'https://api.anthropic.com/v1';"))).toBe(true);
  });

  it('an agent named like a model is not a model id; a model id is, however it continues', () => {
    expect(NAMES.test(code("const ID = 'claude-code';"))).toBe(false);
    expect(NAMES.test(code("import { claudeCode } from './claude-code.ts';"))).toBe(false);
    for (const id of ['claude-sonnet-4-5', 'claude-3-haiku', 'claude-codec-1', 'anthropic.claude-opus-4-1-20250805-v1:0'])
      expect(NAMES.test(code(`const m = '${id}';`)), id).toBe(true);
  });
});
