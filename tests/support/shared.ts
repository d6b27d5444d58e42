/**
 * Where the project's reference material lives: `../shared/` beside the clone (the platform's
 * reference scenarios in shared/reference/iterate). A bare clone — a CI runner, a contributor's
 * checkout — has no such folder, so the tests that read it skip with this one-line reason instead of
 * failing; EXPLAINER_SHARED points at the folder when it sits elsewhere (a git worktree, say).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** The shared/ folder: $EXPLAINER_SHARED, else the one beside the project. */
export const SHARED_DIR = resolve(ROOT, process.env.EXPLAINER_SHARED || '../shared');

/** The reference platform's scenarios (`*.md` with `request@N.yaml` golden blocks). */
export const REFERENCE_DIR = resolve(SHARED_DIR, 'reference/iterate');

/** True when the reference scenarios are there to test against. */
export const HAS_REFERENCE = existsSync(REFERENCE_DIR);

/** Appended to the name of a test that needs them, so a skip says why in the report. */
export const NEEDS_REFERENCE = HAS_REFERENCE ? '' : ` [skipped: ${REFERENCE_DIR} not found — a bare clone has no ../shared; set EXPLAINER_SHARED to run it]`;
