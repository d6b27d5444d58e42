// Test runner config: unit tests sit beside the code (src/**/*.test.ts), browser and build tests in tests/.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 300_000,
    reporters: ['default', './tests/support/count-reporter.ts'],
  },
});
