/**
 * Deterministic synthetic text for the benchmarks: a seeded PRNG (mulberry32) and prose made of a
 * fixed technical vocabulary — sentences, paragraphs, bullet lists, log and code blobs of a given
 * size. The same seed always gives the same text, so two benchmark runs measure the same input and
 * a slowdown is the code's, not the corpus's. Token counts use the usual ~4 characters per token.
 */

/** A seeded random source: `next()` in [0, 1), plus the helpers the generators need. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** mulberry32: small, fast, good enough for test data. */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  hex(length: number): string {
    let s = '';
    while (s.length < length) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }
}

const WORDS = (
  'the a of to and in for on with by from as at is are be run runs test tests build branch commit merge review ' +
  'invoice invoices payment payments customer customers account ledger cents currency total tax rate due date ' +
  'migration schema table column index query cache prefix prompt request response model token tokens context ' +
  'section key value field record event stream offset agent script workspace repo file files path module ' +
  'function type interface handler route endpoint api client server queue worker job retry timeout error ' +
  'errors warning log logs trace metric deploy release config option default flag feature change changes ' +
  'update updates fix fixes bug issue pull main staging production rollback snapshot fixture golden diff ' +
  'always never only every each before after until unless when while because so then also still already ' +
  'new old small large first last next previous current stable exact strict safe fast slow clear short'
).split(' ');

const TITLES = ['Billing', 'Invoices', 'Exports', 'Payments', 'Ledger', 'Webhooks', 'Reports', 'Auth', 'Search', 'Notifications'];

export function word(rng: Rng): string {
  return rng.pick(WORDS);
}

export function title(rng: Rng): string {
  return rng.pick(TITLES);
}

/** One sentence of `min`–`max` words, capitalised, with a full stop. */
export function sentence(rng: Rng, min = 8, max = 18): string {
  const n = rng.int(min, max);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(word(rng));
  if (rng.chance(0.3)) words[rng.int(1, n - 1)] = `\`${rng.pick(['pnpm test', 'src/money/round.ts', 'dueDate', 'GET /invoices/:id', 'CHANGELOG.md', 'feat/due-date'])}\``;
  const s = words.join(' ');
  return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
}

/** A paragraph on one line (prompts are rarely hard-wrapped), `sentences` sentences long. */
export function paragraph(rng: Rng, sentences: number): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(rng));
  return out.join(' ');
}

/** Markdown-ish prose of about `words` words: paragraphs and the odd bullet list. */
export function prose(rng: Rng, words: number): string {
  const blocks: string[] = [];
  let count = 0;
  while (count < words) {
    if (blocks.length > 0 && rng.chance(0.3)) {
      const items: string[] = [];
      for (let i = rng.int(2, 5); i > 0; i--) items.push(`- ${sentence(rng, 5, 12)}`);
      blocks.push(items.join('\n'));
      count += items.join(' ').split(' ').length;
    } else {
      const p = paragraph(rng, rng.int(2, 5));
      blocks.push(p);
      count += p.split(' ').length;
    }
  }
  return blocks.join('\n\n');
}

/**
 * A blob of about `tokens` tokens (×4 characters): a test-runner log or a source file — the kind of
 * script output that lands in a prompt whole.
 */
export function blob(rng: Rng, tokens: number): string {
  const target = tokens * 4;
  const lines: string[] = [];
  let size = 0;
  const kind = rng.pick(['log', 'code'] as const);
  let i = 0;
  while (size < target) {
    let line: string;
    if (kind === 'log') {
      const ms = rng.int(1, 900);
      line = rng.chance(0.1)
        ? `  ✗ src/${word(rng)}/${word(rng)}.test.ts > ${sentence(rng, 4, 8)} (${ms}ms)`
        : `  ✓ src/${word(rng)}/${word(rng)}.test.ts > ${sentence(rng, 4, 9)} (${ms}ms)`;
    } else {
      line =
        i % 12 === 0
          ? `export function ${word(rng)}${title(rng)}(${word(rng)}: ${title(rng)}Input): ${title(rng)}Result {`
          : i % 12 === 11
            ? '}'
            : `  const ${word(rng)}${i} = ${word(rng)}.${word(rng)}(${rng.int(0, 999)}, "${word(rng)} ${word(rng)}");`;
    }
    lines.push(line);
    size += line.length + 1;
    i++;
  }
  return lines.join('\n');
}
