/**
 * The provider formats, in the order they are walked (docs/cache-economics.md, "What the provider would cache"): detection tries
 * them in this order, the wire views list the ones that write a body in this order, and the
 * economics find a cache strategy among their strategies. Adding a provider format is one adapter
 * file (types.ts's ProviderAdapter), its catalog entries, its tests, and one line here (and one in
 * wire-faces.ts when it writes a body).
 */
import { anthropic } from './anthropic.ts';
import { bedrockConverse } from './bedrock-converse.ts';
import { gemini } from './gemini.ts';
import { openaiChat } from './openai-chat.ts';
import { openaiResponses } from './openai-responses.ts';
import { otelGenai } from './otel-genai.ts';
import type { ModelFacts, ProviderFallback } from './shared/catalog.ts';
import { schemaIssues } from '../folds/validate.ts';
import type { Issue } from '../folds/types.ts';
import type { CacheStrategy, JsonObject, ProviderAdapter, Sourced } from './types.ts';

export const PROVIDERS = [openaiChat, openaiResponses, anthropic, bedrockConverse, gemini, otelGenai] as const;

/** A provider format's id (a captured request's `format`). */
export type ProviderId = (typeof PROVIDERS)[number]['id'];
export const PROVIDER_IDS = PROVIDERS.map((p) => p.id) as [ProviderId, ...ProviderId[]];

/** The adapter of a format id. */
export function providerOf(id: ProviderId): ProviderAdapter<ProviderId>;
export function providerOf(id: string): ProviderAdapter | undefined;
export function providerOf(id: string): ProviderAdapter | undefined {
  return (PROVIDERS as readonly ProviderAdapter[]).find((p) => p.id === id);
}

/** The format every request of a capture is, when the agent that writes it only ever sends one (the adapter that lists the capture in `sentBy`). */
export function formatSentBy(captureId: string): ProviderId | undefined {
  return (PROVIDERS as readonly ProviderAdapter[]).find((p) => p.sentBy?.includes(captureId))?.id as ProviderId | undefined;
}

/** The formats of a provider, by the name its adapters give it (`openai`: Chat Completions and Responses). */
export function formatsOfProvider(provider: string): ProviderId[] {
  return (PROVIDERS as readonly ProviderAdapter[]).filter((p) => p.provider === provider).map((p) => p.id as ProviderId);
}

/** The format of an AI SDK provider name (`openai.chat`), from the adapters' `aiSdkProviders`. */
export function formatOfAiSdkProvider(name: string): ProviderId | undefined {
  return (PROVIDERS as readonly ProviderAdapter[]).find((p) => p.aiSdkProviders?.includes(name))?.id as ProviderId | undefined;
}

/** The adapters whose provider keeps a log of its own the import reads (`log`), in registry order. */
export const LOGGING_PROVIDERS: readonly (ProviderAdapter & { log: NonNullable<ProviderAdapter['log']> })[] = (PROVIDERS as readonly ProviderAdapter[]).filter(
  (p): p is ProviderAdapter & { log: NonNullable<ProviderAdapter['log']> } => p.log !== undefined,
);

/** Every cache strategy of every adapter, once each, in registry order. */
export const CACHE_STRATEGIES: readonly CacheStrategy[] = [...new Set(PROVIDERS.flatMap((p) => p.cacheStrategies))];

/** The cache strategy of a profile's `cache` value. */
export function cacheStrategy(id: string): CacheStrategy | undefined {
  return CACHE_STRATEGIES.find((c) => c.id === id);
}

/** The adapter whose provider owns a cache strategy (the first in registry order). */
export function adapterOfStrategy(id: string): ProviderAdapter | undefined {
  return (PROVIDERS as readonly ProviderAdapter[]).find((p) => p.cacheStrategies.some((c) => c.id === id));
}

/** Every adapter's catalog entries, each provider's list once, in registry order. */
export const CATALOG: readonly ModelFacts[] = [...new Set(PROVIDERS.map((p) => p.catalog))].flat();

/** Every adapter's provider fallback, each provider's once, in registry order. */
export const FALLBACKS: readonly ProviderFallback[] = [...new Set(PROVIDERS.flatMap((p) => ((p as ProviderAdapter).fallback ? [(p as ProviderAdapter).fallback!] : [])))];

/** What is wrong with a body of `format` (its adapter's schema, then the rules a schema cannot say); paths inside the body. */
export function bodyIssues(format: ProviderId, body: Record<string, unknown>): Issue[] {
  const adapter: ProviderAdapter = providerOf(format);
  const issues = schemaIssues(adapter.schema, body);
  return issues.length ? issues : (adapter.rules?.(body) ?? []);
}

/** The model a body of `format` went to: its adapter's reading (Bedrock `modelId`, Gemini's `model` without `models/`), else the body's `model`. */
export function modelOf(format: ProviderId, body: Record<string, unknown>): string {
  const adapter: ProviderAdapter = providerOf(format);
  return adapter.model?.(body) ?? String(body.model);
}

/** Display names of the providers, by an adapter's `provider` (the first adapter's title for a provider). */
export const PROVIDER_TITLES: Readonly<Record<string, string>> = Object.fromEntries(
  (PROVIDERS as readonly ProviderAdapter[]).filter((p) => p.providerTitle).map((p) => [p.provider, p.providerTitle!]),
);

/** A model as a scenario names it, for documentation examples: the first adapter's `exampleModel` among those `fits` keeps (default: any). */
export function exampleModel(fits: (a: ProviderAdapter) => boolean = () => true): string {
  return (PROVIDERS as readonly ProviderAdapter[]).find((p) => p.exampleModel && fits(p))!.exampleModel!;
}

/** A request as a `requests` scenario writes it, for documentation examples: the first adapter's `exampleBody`, with its format. */
export const EXAMPLE_REQUEST: { format: ProviderId; body: JsonObject } = (() => {
  const p = PROVIDERS.find((a) => (a as ProviderAdapter).exampleBody)!;
  return { format: p.id, body: (p as ProviderAdapter).exampleBody! };
})();

/** A request feature a provider accepts on some models only: its provider's display name, its rule, the models its documentation lists, and the catalog entries that accept it (catalog order). */
export function documentedFeature(name: string): { providerTitle: string; rule: Sourced<boolean>; models: readonly string[]; entries: readonly ModelFacts[] } | undefined {
  const p = (PROVIDERS as readonly ProviderAdapter[]).find((a) => a.featureDocs?.[name]);
  if (!p) return undefined;
  const doc = p.featureDocs![name]!;
  return { providerTitle: p.providerTitle ?? p.title, ...doc, entries: CATALOG.filter((m) => m.provider === p.provider && m.features?.[name]?.value) };
}

/** Whether a figure's source is a provider's own documentation (an adapter's `docHosts`), not a secondary source. */
export function isProviderPage(url: string): boolean {
  return (PROVIDERS as readonly ProviderAdapter[]).some((p) => p.docHosts?.some((h) => url.startsWith(`https://${h}/`)));
}

/** The models the side-by-side shows by default: each adapter's `sideBySide`, once each, in registry order. */
export const SIDE_BY_SIDE: readonly string[] = [...new Set((PROVIDERS as readonly ProviderAdapter[]).flatMap((p) => p.sideBySide ?? []))];

/** The providers with catalog entries, in registry order: their key, display name and catalog note (each provider's first adapter's). */
export const PROVIDER_GROUPS: readonly { provider: string; title: string; note: string }[] = [
  ...new Map(
    (PROVIDERS as readonly ProviderAdapter[])
      .filter((p) => p.providerTitle && p.catalog.length)
      .map((p) => [p.provider, { provider: p.provider, title: p.providerTitle!, note: p.catalogNote ?? '' }] as const)
      .reverse(),
  ).values(),
].reverse();
