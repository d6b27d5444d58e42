/**
 * The reference platform's markdown interop format: `# Title`, intro prose, and a <details> block
 * holding a ```yaml (events.yaml) fence (plus an optional ```yaml (annotations.yaml) fence).
 * Generated ```yaml (request@N.yaml) blocks may be present and are ignored; any other fence, a
 * repeated input fence or an unclosed one is an error (it would be silently ignored, or swallow
 * the rest of the file). The fence's YAML is read by the same code as a native scenario file.
 */
import type { InputError, SourcePos } from './errors.ts';
import { isRecord, readAnnotations, readDraft, type ParseOptions, type ScenarioDraft } from './parse.ts';
import { eventsFenceSchema } from './schema.ts';
import { readMarkdown, YamlSource, type Fence } from './source.ts';

export function parseMarkdownScenario(file: string, stem: string, text: string, opts: ParseOptions): { draft?: ScenarioDraft; errors: InputError[] } {
  const errors: InputError[] = [];
  const md = readMarkdown(text);
  const at = (line: number): SourcePos => ({ file, line: line + 1, col: 1 });
  if (!md.title) errors.push({ pos: at(0), message: 'missing `# Title` line', fix: 'start the file with a `# <title>` heading' });
  errors.push(...fenceErrors(file, text, md.fences));
  const eventsFence = md.fences.find((x) => x.path === 'events.yaml');
  if (!eventsFence) {
    errors.push({
      pos: at(Math.max(md.titleLine, 0)),
      message: 'missing the ```yaml (events.yaml) fence',
      fix: 'add a <details> block holding a ```yaml (events.yaml) fence with `id:` and `events:`',
    });
    return { errors };
  }
  // An unclosed fence is already an error; its body (the rest of the file) is not worth parsing.
  if (!eventsFence.closed) return { errors };
  const src = new YamlSource(file, eventsFence.body, eventsFence.line + 1);
  if (src.errors.length) return { errors: [...errors, ...src.errors] };
  if (!isRecord(src.value)) {
    errors.push({ pos: src.pos(), message: 'the events.yaml fence must be a YAML mapping', fix: 'give it `id:` and `events:` keys' });
    return { errors };
  }
  const draft = readDraft(src, eventsFenceSchema, 'events.yaml', stem, opts, errors);
  draft.title = md.title;
  draft.intro = md.intro;
  draft.pos = at(Math.max(md.titleLine, 0));
  const annFence = md.fences.find((x) => x.path === 'annotations.yaml');
  if (annFence?.closed) {
    const asrc = new YamlSource(file, annFence.body, annFence.line + 1);
    errors.push(...asrc.errors);
    if (!asrc.errors.length && asrc.value !== null) {
      if (!Array.isArray(asrc.value)) errors.push({ pos: asrc.pos(), message: 'annotations.yaml must be a list', fix: 'write one `- request: "@N"` entry per annotation' });
      else draft.annotations = readAnnotations(asrc, [], errors);
    }
  }
  return { draft, errors };
}

const INPUT_FENCES = ['events.yaml', 'annotations.yaml'];
const OUTPUT_FENCE = /^request@\d+\.yaml$/;

/** Fences that would be silently ignored or would swallow the rest of the file. */
function fenceErrors(file: string, text: string, fences: Fence[]): InputError[] {
  const errors: InputError[] = [];
  const lines = text.split('\n');
  const first = new Map<string, Fence>();
  for (const x of fences) {
    const open = `\`\`\`${x.lang} (${x.path})`;
    if (!x.closed) {
      errors.push({
        pos: { file, line: x.line + 1, col: 1 },
        message: `the ${open} fence is never closed: it runs to the end of the file`,
        fix: 'add a line holding exactly ``` (three backticks, nothing else, at column 1) after its body',
      });
    }
    const pathPos: SourcePos = { file, line: x.line + 1, col: lines[x.line]!.indexOf('(') + 2 };
    if (!INPUT_FENCES.includes(x.path) && !OUTPUT_FENCE.test(x.path)) {
      errors.push({
        pos: pathPos,
        message: `unknown fence \`(${x.path})\`: it would be ignored`,
        fix: 'scenarios read `(events.yaml)` and `(annotations.yaml)` fences (`(request@N.yaml)` blocks are generated output): fix the name, or remove the fence',
      });
      continue;
    }
    const earlier = first.get(x.path);
    if (earlier && INPUT_FENCES.includes(x.path)) {
      errors.push({
        pos: pathPos,
        message: `a second \`(${x.path})\` fence (the first is on line ${earlier.line + 1}): it would be ignored`,
        fix: `merge it into the first \`(${x.path})\` fence`,
      });
    }
    if (!earlier) first.set(x.path, x);
  }
  return errors;
}
