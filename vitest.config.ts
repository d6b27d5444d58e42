// Test runner config: unit tests sit beside the code (src/**/*.test.ts), browser and build tests in tests/.
// Browser tests use CHROMIUM_PATH, else /usr/bin/chromium; when that is missing (a GitHub runner has
// Google Chrome instead), the first Chromium-family browser on PATH is used, so CI needs no setup step.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { defineConfig } from 'vitest/config';

if (!process.env.CHROMIUM_PATH && !existsSync('/usr/bin/chromium')) {
  const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
  const found = names.flatMap((n) => (process.env.PATH ?? '').split(delimiter).map((d) => join(d, n))).find((p) => existsSync(p));
  if (found) process.env.CHROMIUM_PATH = found;
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 300_000,
    reporters: ['default', './tests/support/count-reporter.ts'],
  },
});
