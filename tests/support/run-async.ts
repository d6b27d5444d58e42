/**
 * Test support: a child process run to its end without blocking the test's process — for tests of a
 * command's exit code and output (the CLI tests, the review repository's npm runs), which would
 * otherwise each keep a copy of the same spawn-and-collect code.
 */
import { spawn } from 'node:child_process';

/** A child process run to its end without blocking this one: its exit code (null: ended by a signal) and its output. */
export function runAsync(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string; error?: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', (err) => done({ code: 1, stdout, stderr, error: err.message }));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
