/**
 * The directory target (`dir:<path>`): a local folder that receives the site as a web server's root
 * would. Writes are atomic (temp file in the same folder, then rename), so a killed sync never leaves
 * a half-written page behind; deletes remove emptied folders. Every path is checked to stay inside
 * the root, and symlinks found in it are removed as links, never followed.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { SyncError } from '../errors.ts';
import type { PutOptions, Target } from '../target.ts';

export class DirTarget implements Target {
  readonly root: string;
  readonly description: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.description = `dir:${this.root}`;
  }

  async read(path: string): Promise<Uint8Array | undefined> {
    try {
      return readFileSync(this.abs(path));
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async write(path: string, body: Uint8Array, _options: PutOptions): Promise<void> {
    const file = this.abs(path);
    mkdirSync(dirname(file), { recursive: true });
    const tmp = join(dirname(file), `.${file.slice(dirname(file).length + 1)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.sync-tmp`);
    try {
      writeFileSync(tmp, body);
      renameSync(tmp, file);
    } catch (err) {
      try {
        unlinkSync(tmp);
      } catch {
        /* already gone */
      }
      throw err;
    }
  }

  async list(): Promise<string[]> {
    const out: string[] = [];
    const walk = (dir: string): void => {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) return;
        throw err;
      }
      for (const entry of entries) {
        const abs = join(dir, entry.name);
        if (entry.isDirectory()) walk(abs);
        else out.push(relative(this.root, abs).split(sep).join('/'));
      }
    };
    walk(this.root);
    return out.sort();
  }

  async remove(paths: readonly string[]): Promise<void> {
    for (const path of paths) {
      const file = this.abs(path);
      try {
        unlinkSync(file);
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
      // Remove folders the delete emptied, up to (not including) the root.
      for (let dir = dirname(file); dir !== this.root && dir.startsWith(this.root + sep); dir = dirname(dir)) {
        try {
          if (!lstatSync(dir).isDirectory() || readdirSync(dir).length > 0) break;
          rmdirSync(dir);
        } catch {
          break;
        }
      }
    }
  }

  /** The absolute path of a relative site path; refuses anything that would leave the root. */
  private abs(path: string): string {
    if (!path || path.startsWith('/') || path.includes('\\') || path.includes('\0') || path.split('/').some((s) => s === '' || s === '.' || s === '..')) {
      throw new SyncError(`sync: refusing path "${path}": not a plain relative path inside ${this.description}.`);
    }
    const file = resolve(this.root, path);
    if (!file.startsWith(this.root + sep)) throw new SyncError(`sync: refusing path "${path}": it resolves outside ${this.description}.`);
    return file;
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
