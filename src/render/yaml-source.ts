/**
 * The timeline's "event YAML", highlighted. Each card shows its event as YAML, and those texts are
 * all different (every event's payload), so shiki — a TextMate grammar run per line — spent as long
 * on them as on every prompt of the build together. The YAML is well-formed (the build wrote it),
 * so the `yaml` package's own parser (its CST: every key, value and indicator with its offset)
 * says what each token is, in one fast pass, and each kind is written as its element (`tags`:
 * highlight.ts yamlTokenTags, which the page's data file carries), coloured as shiki's themes
 * colour the same kind of token, so the colours match the rest of the site. Text between tokens is
 * kept as it is, and so are strings — most of an event's characters — without a tag: the block's
 * own colour is the string colour (site.css, `.card details pre code`). Everything is HTML-escaped.
 *
 * It runs in the browser, when the reader first opens an event's YAML (the page script imports it
 * then: its own chunk, with the yaml parser), from the source in the page's data file
 * (scenario-data.ts): the page does not carry every event a second time. Browser-safe: its imports
 * are the yaml parser, the line writer and the escaper.
 */
import { type YamlTags, yamlHtmlLines } from './yaml-html.ts';
import { type YamlKind, yamlRanges } from './yaml-tokens.ts';

/** The YAML text as highlighted HTML (the inside of a <code>), its tokens written as `tags` names them. */
export function yamlSourceHtml(source: string, tags: YamlTags<YamlKind>): string {
  return yamlHtmlLines(source, yamlRanges(source), tags).join('\n');
}
