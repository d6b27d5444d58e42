/**
 * A trace file that is not UTF-8 text, as tools on Windows write it. (A UTF-8 byte order mark is
 * read past before this, scenarios/source.ts withoutBom: RFC 8259 lets a JSON parser ignore it,
 * rfc-editor.org/rfc/rfc8259#section-8.1.) A file holding NUL characters is UTF-16 — what Windows
 * PowerShell 5.1's `>` and `Out-File` write by default; PowerShell 6 and later write UTF-8
 * (learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_character_encoding,
 * read 2026-12-07) — or not text at all. JSON never holds a raw NUL, so one problem says so
 * instead of one JSON error per line.
 */
import type { InputError } from '../scenarios/errors.ts';

/** The problem with a text that holds NUL characters (UTF-16, or not text), at its first line; undefined otherwise. */
export function encodingProblem(text: string, file: string, line = 1): InputError | undefined {
  if (!text.includes('\u0000')) return undefined;
  const name = file.replace(/^.*[\\/]/, '');
  const dot = name.lastIndexOf('.');
  const utf8Name = dot > 0 ? `${name.slice(0, dot)}-utf8${name.slice(dot)}` : `${name}-utf8`;
  return {
    pos: { file, line, col: 1 },
    message: 'the file holds NUL characters: it is UTF-16 text (what Windows PowerShell’s `>` and `Out-File` write) or not text at all',
    fix: `save it as UTF-8 — in PowerShell, \`Get-Content ${name} | Set-Content -Encoding utf8 ${utf8Name}\` — and import that file`,
  };
}
