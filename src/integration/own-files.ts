/**
 * Where the explainer's own files are in this copy of it: the sources (`src/`, modules end in
 * `.ts`) or the installed package (`lib/`, modules end in `.js`). The integration's hook modules
 * find the pages, the layouts and the built-in folds from here, so none of them works the paths
 * out again.
 */
import { fileURLToPath } from 'node:url';

/** The module suffix of this copy: `.ts` from the sources, `.js` from the built package (lib/). */
export const EXT = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/** The explainer's own folder (`src/` or `lib/`), with a trailing separator. */
export const OWN_DIR = fileURLToPath(new URL('../', import.meta.url));

/** The page files injected as routes (src/routes/). */
export const ROUTES_DIR = fileURLToPath(new URL('../routes/', import.meta.url));

/** The built-in folds' index module, which the playground's fold module imports. */
export const BUILTIN_FOLDS_INDEX = fileURLToPath(new URL(`../builtin-folds/index${EXT}`, import.meta.url));

/** The pages' shell inside Starlight (the prompt-fold-explainer/starlight plugin). */
export const STARLIGHT_SHELL = fileURLToPath(new URL('../layouts/StarlightBase.astro', import.meta.url));
