/**
 * The scenario file's own structure as zod strict schemas — top-level keys, events, annotations,
 * `compare` and `expect` — validated and reported exactly like fold payloads (src/folds/validate.ts:
 * one path → message → fix translation), so a problem of the same kind reads the same everywhere.
 * The same schemas generate the editor's JSON Schema. Rules a schema cannot say (time labels,
 * "@N" request names, ids) are checked where the draft is built (parse.ts).
 */
import * as z from 'zod';

export const ID_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

const text = (example: string) => z.string().meta({ examples: [example] });
const mapping = (example: Record<string, unknown>) => z.record(z.string(), z.unknown()).meta({ examples: [example] });

export const eventSchema = z.strictObject({
  off: z
    .int()
    .nonnegative()
    .meta({ description: 'Stream offset; offsets strictly increase across the base chain.', examples: [1] }),
  t: text('0ms').meta({ description: "Elapsed time since the scenario's time zero, e.g. `0ms`, `4.2s`, `1m 30s`.", examples: ['0ms'] }),
  type: text('<event type of the fold>').meta({ description: "An event type of the scenario's fold (see its payload reference).", examples: ['<event type of the fold>'] }),
  payload: mapping({}).nullish().meta({ description: "The event's payload, validated by the fold." }),
  note: text('caption shown beside the event').optional(),
});
export type EventEntry = z.infer<typeof eventSchema>;

export const annotationSchema = z.strictObject({
  request: text('@26').meta({ description: 'One of this scenario\'s own requests, as "@<offset>".', examples: ['@26'] }),
  find: z
    .string()
    .min(1)
    .meta({ description: 'Text that appears in the rendered request (the anchor).', examples: ['text in the rendered request'] }),
  comment: text('what the reader should notice'),
  occurrence: z.int().min(1).optional().meta({ description: 'Which matching line to anchor, from 1 (default: the first).' }),
});
export type AnnotationEntry = z.infer<typeof annotationSchema>;

export const compareSchema = z.strictObject({
  label: text('every-item (before)').meta({ description: 'Names the variant in the Before/After views.', examples: ['every-item (before)'] }),
  fold: text('<fold id>').optional(),
  options: mapping({}).nullish(),
});

/** A `maxMeasuredDiff` entry: a token count, or a percentage of the measured figure ("2%"). */
const diffLimit = (what: string) =>
  z
    .union([z.int().nonnegative(), z.string().regex(/^\d+(\.\d+)?\s?%$/)])
    .optional()
    .meta({
      description: `Largest allowed difference between measured and modelled ${what} tokens on any own request: tokens (120) or a percentage of the measured figure ("2%").`,
      examples: ['2%'],
    });

export const expectSchema = z.strictObject({
  busts: z.array(z.string()).meta({ description: 'Exactly the own requests ("@N") whose ✂ falls above the end of the previous request; [] = none.', examples: [[]] }),
  maxInputTokens: z.int().positive().optional().meta({ description: 'No own request exceeds this many input tokens.' }),
  cached: z
    .array(z.string())
    .optional()
    .meta({
      description:
        'Exactly the own requests ("@N") that read tokens from the provider cache under the scenario\'s model profile; [] = none does. Holds prose that says "cached" to the numbers.',
      examples: [['@42']],
    }),
  maxMeasuredDiff: z
    .strictObject({ inputTokens: diffLimit('input'), cachedTokens: diffLimit('cached'), cacheWriteTokens: diffLimit('cache-write') })
    .optional()
    .meta({
      description: "The model must match the provider's bill (the requests' `measured` usage, from an import) within these differences.",
      examples: [{ cachedTokens: '2%' }],
    }),
});

export const deploySchema = z.strictObject({
  at: text('@40').meta({ description: 'The event ("@N", one of this scenario\'s own) from which requests render under the deployed fold or options.', examples: ['@40'] }),
  options: mapping({}).nullish().meta({ description: "Fold options deployed, shallow-merged over the scenario's own." }),
  fold: text('<fold id>').optional().meta({ description: "A different fold deployed (default: the scenario's own)." }),
});

export const sharesCacheSchema = z.strictObject({
  scenario: text('<id of another scenario>').meta({
    description:
      'The scenario whose provider cache this one shares (the same provider account — one workspace or organisation — and, where the provider keys its cache, the same cache key such as `prompt_cache_key`), e.g. the parent conversation of a subagent.',
    examples: ['parent-conversation'],
  }),
  at: text('@3').meta({
    description: 'The event of that scenario ("@N", any event of its chain) this scenario starts at: its time zero is that event\'s time, so both streams share one clock.',
    examples: ['@3'],
  }),
});

/** Fields both syntaxes share (the markdown format's `events.yaml` fence holds exactly these). */
const common = {
  id: text('my-scenario').meta({ description: 'Lowercase id: letters, digits, `-`, `_`; names the page /scenarios/<id>/.', examples: ['my-scenario'] }),
  fold: text('<fold id>').optional().meta({ description: "The fold that renders this scenario (default: the site's default fold)." }),
  options: mapping({}).nullish().meta({ description: "Fold options, shallow-merged over the fold's defaults." }),
  base: text('<id of another scenario>').optional().meta({ description: 'A scenario whose events come first (the "shared start").' }),
  events: z
    .array(z.unknown())
    .min(1)
    .meta({ description: "The scenario's own events, in offset order.", examples: [[]] }),
  compare: z.unknown().optional(),
  expect: z.unknown().optional(),
  deploy: z.unknown().optional(),
  sharesCache: z.unknown().optional(),
  startedAt: text('2026-11-30T09:12:00Z')
    .optional()
    .meta({
      description:
        "The real instant the events' time labels count from (an imported capture's first request, with its offset): each request is then priced at the prices in force at its own time. Absent: the site's time zero, an illustrative clock, and today's prices.",
      examples: ['2026-11-30T09:12:00Z'],
    }),
  // the request the page opens on; whether it names an own request is checked on render.
  opens: text('"@42"')
    .optional()
    .meta({ description: 'The own request ("@N") the page opens on (default: the first request with a ✂ line).', examples: ['@42'] }),
};

/** A native YAML scenario file. Events, annotations, compare and expect are checked entry by entry. */
export const scenarioFileSchema = z.strictObject({
  ...common,
  title: text('What this scenario shows').meta({ description: 'The page title.', examples: ['What this scenario shows'] }),
  intro: z.string().nullish().meta({ description: 'Markdown prose shown above the timeline.' }),
  annotations: z.array(z.unknown()).nullish(),
});

/** The markdown interop format's `events.yaml` fence (title and intro come from the markdown). */
export const eventsFenceSchema = z.strictObject(common);
