/**
 * The built-in folds by id. Projects add their own through the integration options
 * (astro.config.mjs → `folds: ['context-protocol', 'layered', 'requests', './my-fold.ts']`).
 */
import { contextProtocol } from './context-protocol/index.ts';
import { layered } from './layered/index.ts';
import { requests } from './requests/index.ts';
import type { AnyFold } from '../folds/types.ts';

export const BUILTIN_FOLDS: ReadonlyMap<string, AnyFold> = new Map<string, AnyFold>([
  [contextProtocol.id, contextProtocol],
  [layered.id, layered],
  [requests.id, requests],
]);
