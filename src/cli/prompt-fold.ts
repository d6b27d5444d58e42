#!/usr/bin/env node
/**
 * `prompt-fold <command>` — the installed package's one command line (its `bin`), for a host site
 * as much as for this repository. Installed, it is lib/cli/prompt-fold.js (the package's build of
 * this file); in this repository `npm run prompt-fold -- <command>` runs it from source, and so do
 * the npm scripts of its commands (`npm run check` is `prompt-fold check`).
 *
 * Only this: Node keeps the compiled code of every module a command loads (its own and its
 * dependencies') in a cache in the temp folder, so a command starts ≈0.3 s sooner from its second
 * run — for the modules compiled after the cache is on, hence the commands are imported only then
 * (commands.ts). Astro's own bin does the same for a build.
 */
import * as nodeModule from 'node:module';

// A namespace import: a Node without the function (before 22.1) runs the command without the cache.
nodeModule.enableCompileCache?.();
await import('./commands.ts');
