/**
 * Where the explainer's pages live, for the pages and components that link to one another: the
 * site's `base` (Astro's BASE_URL, e.g. a pull-request preview's sub-path) followed by the
 * integration's `route` option (e.g. `/explainer/`), always ending in `/`. Every link, data file and
 * the search bundle are made from it, so the explainer works under any route of any host site. Also
 * the page-level options (title, navigation, chrome) the layouts read, and where a `nav` link points;
 * importing it sets the project facts (src/project.ts) for the pages.
 */
// @ts-expect-error — provided by the explainer integration's vite plugin
import { page, project } from 'virtual:prompt-fold-explainer/config';
import { type ProjectFacts, setProject } from '../project.ts';
import type { PageOptions } from './options.ts';

// The pages' messages name the project's commands and config file (src/project.ts): set from the
// integration's facts, which a page's module may not share with the integration's process state.
setProject(project as ProjectFacts);

/** The page-level options, defaults filled in (options.ts parseOptions), and whether the host has a public/favicon.svg. */
export const pageOptions = page as PageOptions & { favicon: boolean };

/** The site's base, ending in `/` (the host's own root: its favicon, its home page). */
export const siteBase = (): string => import.meta.env.BASE_URL.replace(/\/?$/, '/');

/** The explainer's root URL path: site base + route, ending in `/`. */
export const explainerBase = (): string => siteBase() + pageOptions.route.replace(/^\//, '');

/** A `nav` option's href: absolute (`/docs/`, `https://…`, `#x`) as written, relative ones below the explainer's root. */
export const navHref = (href: string): string => (/^([a-z][a-z0-9+.-]*:|\/|#)/i.test(href) ? href : explainerBase() + href);
