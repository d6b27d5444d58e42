/**
 * The request parameters of an Anthropic Messages body that are a cache dimension (cache.ts): the
 * `tool_choice`, the thinking configuration, and the set of images in the prompt — each as a
 * comparable string (absent: not sent). Images are counted by their source, in order: adding or
 * removing one changes the set.
 */
import { isObject, type Obj } from '../shared/normalise.ts';
import type { RequestParams } from '../types.ts';

/** Every `image` block of the messages (tool results included), by its source. */
function images(messages: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (isObject(v)) {
      if (v.type === 'image') out.push(JSON.stringify(v.source ?? null));
      else if (Array.isArray(v.content)) walk(v.content);
    }
  };
  for (const m of Array.isArray(messages) ? messages : []) if (isObject(m)) walk(m.content);
  return out;
}

export function anthropicParams(body: Obj): RequestParams {
  const out: Record<string, string> = {};
  if (body.tool_choice !== undefined) out.tool_choice = JSON.stringify(body.tool_choice);
  if (body.thinking !== undefined) out.thinking = JSON.stringify(body.thinking);
  const imgs = images(body.messages);
  if (imgs.length) out.images = JSON.stringify(imgs);
  return out;
}
