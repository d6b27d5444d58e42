/**
 * A pull-request build's base ref (the `baseRef` option or EXPLAINER_BASE), checked before the
 * build renders anything: the pages compare each scenario with that commit (src/review/), so a ref
 * git cannot resolve stops the build with what to do, instead of a page without its comparison.
 */
import type { AstroIntegrationLogger } from 'astro';
import { resolveRef } from '../review/base.ts';
import { buildError } from './astro-error.ts';
import { ENV, environment } from './environment.ts';

/** Logs the base the build compares with; throws a build error when git cannot resolve it. */
export function checkBaseRef(root: string, base: string | undefined, logger: AstroIntegrationLogger): void {
  if (!base) return;
  try {
    logger.info(`comparing with base ${base} (${resolveRef(root, base).slice(0, 7)})`);
  } catch (err) {
    const from = environment().baseRef ? ENV.baseRef : 'baseRef';
    throw buildError(`${from}: ${(err as Error).message}`, `Pull-request builds compare with the base branch: fetch it, or unset ${from} for a plain build.`);
  }
}
