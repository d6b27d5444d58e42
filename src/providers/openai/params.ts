/**
 * The request parameters of an OpenAI body (Chat Completions or Responses) the cache strategy
 * reads: `prompt_cache_options.mode` — `explicit` turns the implicit breakpoint off (OpenAI's API
 * text as generated into async-openai 0.42, docs.rs/async-openai/0.42.0/async_openai/types/responses/struct.PromptCacheOptionsParam.html,
 * read 2026-12-03: "Set mode to explicit to disable the implicit breakpoint"; GPT-5.6 and later).
 */
import { isObject, type Obj } from '../shared/normalise.ts';
import type { RequestParams } from '../types.ts';

export function openaiParams(body: Obj): RequestParams {
  const o = body.prompt_cache_options;
  return isObject(o) && typeof o.mode === 'string' ? { prompt_cache_mode: o.mode } : {};
}
