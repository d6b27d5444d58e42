// `npm run import` as a person runs it (a child process): writes the scenario and reports the
// dropped secrets; a bad trace is exit 1 with file:line:col and the fix, no stack, nothing written;
// it never replaces a scenario it did not write nor reuses another's id; and the bundled example re-imports byte for byte.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'import-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['src/cli/import.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

// Each run loads astro.config.mjs and the integration, seconds on a busy machine: generous timeouts.
describe('npm run import', { timeout: 180_000 }, () => {
  it('the bundled example trace imports to exactly the committed scenario (deterministic, annotations kept)', async () => {
    // The committed scenario under another id (its own id is taken — by itself), imported over.
    const committed = readFileSync(join(ROOT, 'scenarios/30-imported-trace.yaml'), 'utf8');
    const copy = committed.replace(/^id: imported-trace$/m, 'id: imported-copy');
    const out = join(dir, 'example.yaml');
    writeFileSync(out, copy);
    const r = await cli(['examples/traces/agent-session.anthropic.jsonl', '--id', 'imported-copy', '--out', out]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(out, 'utf8')).toBe(copy);
    expect(r.stdout).toContain('examples/traces/agent-session.anthropic.jsonl:1:');
    expect(r.stdout).toContain('dropped a credential header: header x-api-key');
    expect(r.stdout).toMatch(/dropped an API key \(sk-…\): messages\.4\.content\.0\.content/);
    expect(r.stdout).not.toMatch(/sk-ant-api03|sk-proj-FAKE/);
    expect(readFileSync(out, 'utf8')).not.toMatch(/sk-ant-api03|sk-proj-FAKE|x-api-key/);
  });

  it('a bad trace: exit 1, file:line:col error and fix, no stack, nothing written', async () => {
    const trace = join(dir, 'bad.jsonl');
    writeFileSync(
      trace,
      '{"model": "gpt-5", "messages": [{"role": "developer", "content": "D"}, {"role": "user", "content": "q"}]}\n{"model": "claude", "system": "S", "max_tokens": 1, "messages": [{"role": "user", "content": "q"}]}\n',
    );
    const out = join(dir, 'bad.yaml');
    const r = await cli([trace, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.jsonl:2:1 error: this line is an Anthropic Messages request body, but line 1 is an OpenAI Chat Completions one — mixed providers\n {2}fix: /);
    expect(r.stderr).toContain('nothing was written');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses to replace a scenario it did not write, and rejects bad arguments', async () => {
    const out = join(dir, 'hand.yaml');
    writeFileSync(out, 'id: hand\n');
    const r = await cli(['examples/traces/agent-session.anthropic.jsonl', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/exists and was not written by an import\n {2}fix: choose another --id or --out, or pass --force/);
    expect(readFileSync(out, 'utf8')).toBe('id: hand\n');
    expect((await cli(['x.jsonl', '--format', 'gemini'])).stderr).toMatch(/unknown --format "gemini"\n {2}fix: use one of openai-chat, openai-responses, anthropic, otlp/);
    expect((await cli([])).stderr).toMatch(/no trace file given/);
    const clash = await cli(['examples/traces/agent-session.anthropic.jsonl', '--id', 'birth-window', '--out', join(dir, 'clash.yaml')]);
    expect(clash.stderr).toMatch(/scenarios\/01-birth-window\.yaml already has the id "birth-window"\n {2}fix: pass another --id/);
    expect(existsSync(join(dir, 'clash.yaml'))).toBe(false);
  });
});
