/**
 * The report as JUnit XML (`--reporter junit`), the file every CI shows as test results: one
 * `<testsuite>` per conversation, one `<testcase>` per promise made (and `api` when a request is
 * one the provider would reject), a `<failure>` per broken promise with the located explanation
 * as its text. Bad input is one suite with an `<error>` per problem.
 *
 * Everything from a capture or an expectations file is untrusted: escaped for XML text and
 * attributes, and characters XML 1.0 cannot hold at all (control characters, lone surrogates,
 * U+FFFE/U+FFFF) are written as visible `\u{…}` escapes instead of being dropped.
 */
import type { AssertReport } from '../run.ts';
import type { Failure, PromiseKind } from '../evaluate.ts';
import { formatError } from '../../scenarios/errors.ts';
import { failureText } from './text.ts';

/** Characters XML 1.0 does not allow, even escaped. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what this finds
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text safe inside an XML element or a double- or single-quoted attribute. */
export function xmlEscape(s: string): string {
  return s
    .replace(NOT_XML, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\r/g, '&#13;');
}

const attr = (k: string, v: string | number): string => `${k}="${xmlEscape(String(v))}"`;

/** The promises a report's expectations made, in a fixed order (a case per promise, failed or not). */
export function promisesOf(r: AssertReport): PromiseKind[] {
  const kinds = new Set<PromiseKind>(r.made);
  for (const f of r.failures) kinds.add(f.expectation);
  return (['api', 'deterministic', 'busts', 'cached', 'minCached', 'maxInputTokens', 'maxMeasuredDiff', 'maxCostPerConversation'] as const).filter((k) => kinds.has(k));
}

export function junitReport(r: AssertReport): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  if (r.problems.length) {
    out.push(`<testsuites ${attr('name', 'prompt-fold assert')} tests="1" failures="0" errors="${r.problems.length}">`);
    out.push(`  <testsuite ${attr('name', 'input')} tests="1" failures="0" errors="${r.problems.length}">`);
    out.push(`    <testcase ${attr('name', 'the captures and expectations read')} ${attr('classname', 'prompt-fold.assert')}>`);
    for (const p of r.problems) out.push(`      <error ${attr('message', p.message)} type="input">${xmlEscape(formatError(p))}</error>`);
    out.push('    </testcase>', '  </testsuite>', '</testsuites>');
    return `${out.join('\n')}\n`;
  }
  const kinds = promisesOf(r);
  const tests = r.conversations.length * kinds.length;
  out.push(`<testsuites ${attr('name', 'prompt-fold assert')} ${attr('tests', tests)} ${attr('failures', r.failures.length)} errors="0">`);
  for (const c of r.conversations) {
    const mine = r.failures.filter((f) => f.conversation === c.conversation);
    out.push(`  <testsuite ${attr('name', c.conversation)} ${attr('tests', kinds.length)} ${attr('failures', mine.length)} errors="0">`);
    for (const k of kinds) {
      const broken: Failure[] = mine.filter((f) => f.expectation === k);
      const head = `    <testcase ${attr('name', k)} ${attr('classname', c.conversation)} ${attr('file', c.capture)}`;
      if (!broken.length) {
        out.push(`${head}/>`);
        continue;
      }
      out.push(`${head}>`);
      for (const f of broken) out.push(`      <failure ${attr('message', f.message)} ${attr('type', f.expectation)}>${xmlEscape(failureText(f))}</failure>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
