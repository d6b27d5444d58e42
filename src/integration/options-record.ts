/**
 * Where the command line finds the explainer's options in a host's loaded astro config (cli/config.ts):
 * on the integration named INTEGRATION_NAME, which carries them, or — the explainer inside
 * Starlight's plugins, not the config's integrations — in the record the Starlight plugin
 * (src/package/starlight.ts) keeps of the options it was given. Its own module, light on purpose:
 * reading a config must not load what the integration's hooks do (index.ts loads those in its hooks).
 */
import type { ExplainerOptions } from './options.ts';
import { PACKAGE_NAME } from './project-facts.ts';
import { sharedState } from './shared-state.ts';

export const INTEGRATION_NAME = PACKAGE_NAME;

/** Options given to the Starlight plugin, in call order. */
export const starlightOptions = (): ExplainerOptions[] => sharedState('starlight-options', () => [] as ExplainerOptions[]);
