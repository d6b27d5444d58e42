/**
 * The formats a rendered request can be written in, each as its wire face only (types.ts WireFace:
 * id, title, body writer, endpoint), in registry order. The wire views load this list, not the
 * registry: a page's script that imported the adapters carried their schemas and readers (zod among
 * them, 150 KB of the wire views' 175 KB chunk) to write a body it never reads. Each adapter takes
 * its face whole; registry.test.ts checks that this list is the registry's writing adapters, the
 * same objects in the same order.
 */
import { ANTHROPIC_WIRE } from './anthropic/wire.ts';
import { BEDROCK_WIRE } from './bedrock/wire.ts';
import { GEMINI_WIRE } from './gemini/wire.ts';
import { OPENAI_CHAT_WIRE } from './openai/chat-wire.ts';
import { OPENAI_RESPONSES_WIRE } from './openai/responses-wire.ts';
import type { WireFace } from './types.ts';

export const WIRE_FACES: readonly WireFace[] = [OPENAI_CHAT_WIRE, OPENAI_RESPONSES_WIRE, ANTHROPIC_WIRE, BEDROCK_WIRE, GEMINI_WIRE];

/** The face of a wire format, or undefined. */
export const wireFaceOf = (id: string): WireFace | undefined => WIRE_FACES.find((f) => f.id === id);
