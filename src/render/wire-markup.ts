/**
 * The provider wire views of one request as HTML (WireViews.astro prints it in a pane at build
 * time; the page script puts the same markup in a pane it builds from the page's data, so a request
 * fetched later carries the same views as one printed in the page). A closed <details> whose
 * per-format views are empty until first opened: `<pf-wire-view>`
 * (components/WireViews/pf-wire-view.ts) writes the JSON from the page's packed messages then. Made at build time only (the page script receives it in the
 * data of the panes it builds, pane-data.ts, and never loads the wire formats for it); every value is escaped.
 */
import { escapeHtml } from './escape.ts';
import { FORMAT_TITLES, WIRE_FORMATS } from '../wire/index.ts';

/** `id`: the DOM id prefix (unique per page); `base`: the site's base path; `files`: attached files the JSON leaves out. */
export function wireViewsMarkup(id: string, base: string, files: number): string {
  const e = escapeHtml;
  const href = e(`${base}reference/wire-formats/`);
  const filesNote = files > 0 ? ` ${files} attached file${files === 1 ? ' is a reference' : 's are references'}, not in the JSON.` : '';
  const formats = WIRE_FORMATS.map(
    (format, i) =>
      `<details class="wire-format" name="${e(`${id}-formats`)}" data-format="${e(format)}"${i === 0 ? ' open' : ''}><summary>${e(FORMAT_TITLES[format] ?? format)}</summary>` +
      '<div class="wire-actions" hidden><button type="button" data-copy="json">Copy as JSON</button><button type="button" data-copy="curl">Copy as cURL</button></div>' +
      `<pre class="wire-json" role="region" tabindex="0" aria-label="${e(`${FORMAT_TITLES[format]} request body`)}"><code></code></pre></details>`,
  ).join('');
  return (
    `<details class="wire" data-wire="${e(id)}"><summary><span class="wire-closed">Provider JSON</span><span class="wire-open">Printed request</span> <span class="muted">${e(WIRE_FORMATS.map((f) => FORMAT_TITLES[f] ?? f).join(' · '))}</span></summary>` +
    `<pf-wire-view><p class="muted wire-note">What each provider's API would receive for this request — mapped as the <a href="${href}">wire formats page</a> describes.${e(filesNote)} <span class="wire-status" role="status"></span></p>` +
    `<noscript><p class="wire-note">The provider JSON is written by this page's script, which is not running. The printed request shows the same messages; the <a href="${href}">wire formats page</a> says how each provider receives them.</p></noscript>` +
    `${formats}</pf-wire-view></details>`
  );
}
