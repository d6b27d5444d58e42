/**
 * `npm run bench:economics [-- --sizes 100,1000]` — what the cache economics add to a build: for N
 * synthetic scenarios (tools/bench/corpus.ts, as `npm run bench` uses) it times, in this process, the
 * corpus render alone and the economics over it (tokenizing each distinct message once, prefixes,
 * cached tokens, cost, attribution), and prints both with their ratio. Prints numbers, asserts none.
 */
import { parseArgs } from 'node:util';
import { BUILTIN_FOLDS } from '../../src/builtin-folds/index.ts';
import { DEFAULT_TIME_ZERO } from '../../src/integration/options.ts';
import { generateCorpus } from '../bench/corpus.ts';
import { loadTexts } from '../../src/scenarios/load.ts';
import { renderScenario } from '../../src/prompt/render.ts';
import { scenarioEconomics } from '../../src/economics/compute.ts';
import { DEFAULT_ECONOMICS } from '../../src/economics/profiles.ts';
import { tokenizer } from '../../src/economics/tokens.ts';
import { runMain } from '../../src/cli/config.ts';

runMain(async () => {
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '100,1000' } }, strict: true });
  const t0 = performance.now();
  tokenizer('o200k_base');
  tokenizer('cl100k_base');
  console.log(`tokenizer load: ${(performance.now() - t0).toFixed(0)} ms (once per process)`);
  console.log('N     requests  render (load+fold+print+weave)  economics  economics ÷ render  distinct texts');
  for (const n of values.sizes!.split(',').map(Number)) {
    const { files } = generateCorpus({ scenarios: n });
    const config = { folds: BUILTIN_FOLDS, defaultFold: 'context-protocol', timeZero: DEFAULT_TIME_ZERO };
    const a = performance.now();
    const { scenarios } = await loadTexts(
      files.map((f) => ({ file: `scenarios/${f.name}`, text: f.text })),
      config,
    );
    const rendered = [];
    for (const s of scenarios) rendered.push(await renderScenario(s, BUILTIN_FOLDS.get(s.fold)!, { everyEvent: true }, []));
    const b = performance.now();
    for (const r of rendered) scenarioEconomics(r, DEFAULT_ECONOMICS);
    const c = performance.now();
    const requests = rendered.reduce((k, r) => k + r.chain.length, 0);
    console.log(
      `${String(n).padEnd(6)}${String(requests).padEnd(10)}${`${(b - a).toFixed(0)} ms`.padEnd(32)}${`${(c - b).toFixed(0)} ms`.padEnd(11)}${((c - b) / (b - a)).toFixed(3).padEnd(20)}${tokenizer('o200k_base').size}`,
    );
  }
});
