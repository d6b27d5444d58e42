/**
 * Where a pull request's preview lives, in one place: the folder `previews/pr-<N>/` under the
 * production target (so one bucket, one domain and one set of credentials serve both), the URL path
 * the preview is built for (the production site's path + `previews/pr-<N>/`), and its public URL.
 * Production syncs keep `previews/` out of their listing, so a production --prune never deletes a
 * preview; removing a preview touches nothing but its own folder.
 */
import { basePathOf, SiteBaseError } from '../integration/site-base.ts';
import { parseTargetSpec } from '../sync/target.ts';

/** The folder, under the production target, that holds every preview. */
export const PREVIEWS_DIR = 'previews';

/** A pull-request number from the command line: a positive integer, nothing else. */
export function parsePr(value: string | undefined, from = '--pr'): number {
  if (value === undefined || value === '') throw new SiteBaseError(`missing ${from} <number> — the pull request whose preview this is`);
  if (!/^[1-9][0-9]{0,9}$/.test(value)) throw new SiteBaseError(`${from} "${value}" is not a pull-request number`, { fix: `pass the number alone, e.g. ${from} 123` });
  return Number(value);
}

/** `previews/pr-<N>`: the preview's folder relative to the production target. */
export function previewFolder(pr: number): string {
  return `${PREVIEWS_DIR}/pr-${pr}`;
}

/** The `--target` of a preview: the production target with `previews/pr-<N>` appended. */
export function previewTarget(spec: string, pr: number): string {
  const parsed = parseTargetSpec(spec);
  if (parsed.kind === 'dir') return `dir:${parsed.path.replace(/\/+$/, '')}/${previewFolder(pr)}`;
  return `s3://${parsed.bucket}/${parsed.prefix ? `${parsed.prefix}/` : ''}${previewFolder(pr)}`;
}

/** The URL path a preview is built for: the production site's path + `previews/pr-<N>/`. */
export function previewBasePath(pr: number, siteUrl?: string): string {
  return `${siteUrl ? basePathOf(siteUrl) : '/'}${previewFolder(pr)}/`;
}

/** The preview's public URL (no trailing slash), for links: `https://site.example/previews/pr-7`. */
export function previewUrl(pr: number, siteUrl: string): string {
  const url = new URL(siteUrl);
  return `${url.origin}${previewBasePath(pr, siteUrl)}`.replace(/\/$/, '');
}
