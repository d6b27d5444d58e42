/**
 * js-yaml behind the playground's first pane (js-yaml-later.ts): in the worker's bundle `js-yaml`
 * resolves to a stand-in that refuses every text — so the loader reads with the `yaml` package —
 * until `loadJsYaml()`, and then is js-yaml itself; everywhere else the loader module is a no-op.
 * The stand-in is imported here as the bundle would run it (a module file beside the project's
 * node_modules), and its reads compared with js-yaml's own.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as jsYaml from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { JS_YAML_LATER_MODULE, JS_YAML_NOW, jsYamlLater } from './js-yaml-later.ts';

const dir = mkdtempSync(join(process.cwd(), 'node_modules', '.js-yaml-later-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('js-yaml in the playground’s worker', () => {
  const plugin = jsYamlLater();
  const later = plugin.resolveId('js-yaml', '/src/scenarios/outline.ts')!;

  it('resolves js-yaml and the loader to the stand-in, but not the stand-in’s own import of js-yaml', () => {
    expect(later).toMatch(/^\0/);
    expect(plugin.resolveId(JS_YAML_LATER_MODULE, '/src/playground/worker.ts')).toBe(later);
    expect(plugin.resolveId('js-yaml', later)).toBeUndefined();
    expect(plugin.resolveId('yaml', '/src/scenarios/outline.ts')).toBeUndefined();
  });

  it('refuses every text until loaded (the yaml package reads it), then reads as js-yaml does', async () => {
    const file = join(dir, 'later.mjs');
    writeFileSync(file, plugin.load(later)!);
    const m = (await import(pathToFileURL(file).href)) as typeof jsYaml & { loadJsYaml(): Promise<void> };
    const text = 'id: x\nevents:\n  - off: 1\n    type: a\n';
    expect(() => m.parseEvents(text, {})).toThrow(/not loaded yet/);
    await m.loadJsYaml();
    expect(m.EVENT_ID).toBe(jsYaml.EVENT_ID);
    expect(m.SCALAR_STYLE).toBe(jsYaml.SCALAR_STYLE);
    const events = m.parseEvents(text, {});
    expect(events).toEqual(jsYaml.parseEvents(text, {}));
    expect(m.constructFromEvents(events, { source: text })).toEqual(jsYaml.constructFromEvents(jsYaml.parseEvents(text, {}), { source: text }));
  });

  it('outside the worker, the loader is a no-op', async () => {
    const file = join(dir, 'now.mjs');
    writeFileSync(file, JS_YAML_NOW);
    const m = (await import(pathToFileURL(file).href)) as { loadJsYaml(): Promise<void> };
    await expect(m.loadJsYaml()).resolves.toBeUndefined();
  });
});
