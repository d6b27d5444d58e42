/**
 * `prompt-fold-explainer/starlight` — the explainer inside a Starlight site, as a Starlight plugin:
 *   starlight({ plugins: [explainerStarlight({ scenarios: 'scenarios', route: '/explainer/' })] })
 * It adds the explainer integration (src/package/index.ts) with `chrome: 'starlight'`, so every
 * page is wrapped in Starlight's page component (layouts/StarlightBase.astro: header, sidebar,
 * search, theme), and appends a sidebar group listing the explainer's home and its scenarios. The
 * options are recorded for the `prompt-fold` command line, which finds them here rather than in
 * the config's integrations (cli/config.ts).
 */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { UserError } from '../errors.ts';
import { markdownText } from '../render/markdown.ts';
import type { ExplainerOptions } from '../integration/options.ts';
import { starlightOptions } from '../integration/options-record.ts';
import { explainer } from './index.ts';

/** The part of Starlight's plugin interface this plugin uses (see starlight.astro.build/reference/plugins/). */
interface SidebarItem {
  label: string;
  link?: string;
  items?: SidebarItem[];
  collapsed?: boolean;
}
interface SetupParams {
  config: { sidebar?: unknown[] };
  updateConfig(config: { sidebar?: unknown[] }): void;
  addIntegration(integration: AstroIntegration): void;
  astroConfig: { root: URL };
  logger: { warn(message: string): void };
}
export interface StarlightPlugin {
  name: string;
  hooks: { 'config:setup': (params: SetupParams) => Promise<void> };
}

/** The sidebar group: the explainer's home, one link per scenario (none when the corpus has errors: the build reports them), then its reference pages and the playground. */
export async function sidebarGroup(root: string, options: ExplainerOptions): Promise<SidebarItem> {
  // Loaded here, not with the config: a `prompt-fold` command that only reads the config renders nothing.
  const [{ parseOptions, resolveOptions }, { sharedRender }] = await Promise.all([import('../integration/options.ts'), import('../integration/shared-render.ts')]);
  const page = parseOptions(options);
  const config = await resolveOptions(root, options);
  const corpus = await sharedRender(config);
  const scenarios = corpus.errors.length ? [] : corpus.scenarios.map((r) => ({ label: markdownText(r.scenario.title), link: `${page.route}scenarios/${r.scenario.id}/` }));
  const reference = [
    { label: 'How the numbers are computed', link: `${page.route}reference/economics/` },
    { label: 'Wire formats', link: `${page.route}reference/wire-formats/` },
    { label: 'Bring your own fold', link: `${page.route}reference/bring-your-own-fold/` },
    { label: 'Playground', link: `${page.route}playground/` },
  ];
  return { label: page.title, items: [{ label: 'Scenarios', link: page.route }, ...scenarios, ...reference] };
}

export function explainerStarlight(options: ExplainerOptions = {}): StarlightPlugin {
  starlightOptions().push(options);
  return {
    name: 'prompt-fold-explainer/starlight',
    hooks: {
      'config:setup': async ({ config, updateConfig, addIntegration, astroConfig, logger }) => {
        const own = { ...options, chrome: 'starlight' as const };
        addIntegration(explainer(own));
        let group: SidebarItem;
        try {
          group = await sidebarGroup(fileURLToPath(astroConfig.root), own);
        } catch (err) {
          // A bad option: the integration added above reports it as Astro's error, with its hint.
          if (UserError.is(err)) return logger.warn(err.message);
          throw err;
        }
        // Without a sidebar of its own Starlight lists every docs page (its root autogenerate
        // entry, as Starlight's own default): keep that, then the explainer's group.
        const sidebar = config.sidebar ?? [{ autogenerate: { directory: '' } }];
        updateConfig({ sidebar: [...sidebar, group] });
      },
    },
  };
}

export default explainerStarlight;
