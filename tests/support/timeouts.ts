/**
 * Time limits for tests over the whole corpus (every scenario in `scenarios/`): in this repository
 * they take seconds, but a team that imports its own captures (`npm run import`, then commits them)
 * runs them over dozens of long real conversations — 35 published captures took 40–45 s on two
 * busy cores, past vitest's 30-second default (vitest.config.ts). A limit catches a hang; it is not
 * a claim about speed.
 */
export const CORPUS_TIMEOUT = 600_000;
