// Tests for `--target` parsing and opening: the two forms, their validation, and the endpoint rules.
import { describe, expect, it } from 'vitest';
import { SyncError } from './errors.ts';
import { openTarget, parseTargetSpec } from './target.ts';
import { DirTarget } from './targets/dir.ts';
import { S3Target } from './targets/s3.ts';

describe('parseTargetSpec', () => {
  it('reads dir: and s3:// targets, normalising the prefix', () => {
    expect(parseTargetSpec('dir:./out')).toEqual({ kind: 'dir', path: './out' });
    expect(parseTargetSpec('s3://my-site/prod')).toEqual({ kind: 's3', bucket: 'my-site', prefix: 'prod' });
    expect(parseTargetSpec('s3://my-site/a/b/')).toEqual({ kind: 's3', bucket: 'my-site', prefix: 'a/b' });
    expect(parseTargetSpec('s3://my-site/')).toEqual({ kind: 's3', bucket: 'my-site', prefix: '' });
    expect(parseTargetSpec('s3://my-site')).toEqual({ kind: 's3', bucket: 'my-site', prefix: '' });
  });

  it.each([
    ['ftp://x', /"ftp:\/\/x" is not a target; use `dir:<path>` or `s3:\/\/<bucket>\/<prefix>`/],
    ['dir:', /dir: needs a path/],
    ['s3://B/site', /"B" in --target s3:\/\/B\/site is not a valid bucket name/],
    ['s3:///site', /"" in --target .* is not a valid bucket name/],
    ['s3://bucket/a/../b', /has an empty, "\." or "\.\." segment/],
    ['s3://bucket/a//b', /has an empty, "\." or "\.\." segment/],
  ])('refuses %s', (spec, message) => {
    expect(() => parseTargetSpec(spec)).toThrow(SyncError);
    expect(() => parseTargetSpec(spec)).toThrow(message);
  });
});

describe('openTarget', () => {
  it('opens a directory or an S3 bucket', async () => {
    expect(await openTarget('dir:/tmp/www')).toBeInstanceOf(DirTarget);
    const s3 = await openTarget('s3://my-site/prod', { endpoint: 'http://127.0.0.1:9000' });
    expect(s3).toBeInstanceOf(S3Target);
    expect(s3.description).toBe('s3://my-site/prod (endpoint http://127.0.0.1:9000)');
  });

  it('treats an empty --endpoint as AWS (the CI workflow passes "$S3_ENDPOINT" unconditionally)', async () => {
    expect((await openTarget('s3://my-site/prod', { endpoint: '' })).description).toBe('s3://my-site/prod');
  });

  it('refuses a bad endpoint, and an endpoint on a directory target', async () => {
    await expect(openTarget('s3://my-site/prod', { endpoint: 'r2.example.com' })).rejects.toThrow(/--endpoint "r2\.example\.com" is not an http\(s\) URL/);
    await expect(openTarget('dir:/tmp/www', { endpoint: 'http://127.0.0.1:1' })).rejects.toThrow(/--endpoint is for s3:\/\/ targets/);
  });
});
