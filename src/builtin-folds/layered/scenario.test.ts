/**
 * The `layered` fold inside the scenario pipeline: it is a registered built-in, a scenario with
 * `fold: layered` renders its requests, and payload/option issues and an empty request come back
 * as file:line:column errors that name the fix.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_FOLDS } from '../index.ts';
import { renderTexts } from '../../corpus/check.ts';
import { formatError } from '../../scenarios/errors.ts';
import { layered } from './index.ts';

const config = { timeZero: '2026-08-24T16:41:00.000Z', folds: BUILTIN_FOLDS, defaultFold: 'context-protocol' };
const run = async (text: string) => await renderTexts([{ file: 'scenarios/20-x.yaml', text }], config, { everyEvent: false });

const GOOD = `id: x
title: X
fold: layered
events:
  - off: 1
    t: 0ms
    type: entry/added
    payload: {layer: L0, role: SYSTEM, sourceType: systemPrompt, content: sys}
  - off: 2
    t: 1s
    type: entry/added
    payload: {layer: L1, role: USER, sourceType: agentPrompt, content: task}
  - off: 3
    t: 2s
    type: request
    payload: {model: m}
`;

describe('layered in the scenario pipeline', () => {
  it('is a registered built-in fold', () => {
    expect(BUILTIN_FOLDS.get('layered')).toBe(layered);
  });

  it('renders a scenario with `fold: layered`', async () => {
    const r = await run(GOOD);
    expect(r.errors).toEqual([]);
    expect(r.scenarios[0]!.requests[0]!.text).toBe(
      'model: m\nmessages:\n  - role: system\n    content: "sys"\n    # ⚑ cache breakpoint\n  - role: user\n    content: "task"\n    # ⚑ cache breakpoint',
    );
  });

  it('a payload issue is an error at the field, with its fix', async () => {
    const r = await run(GOOD.replace('sourceType: agentPrompt, ', 'sourceType: agentPrompt, ordnial: 4, '));
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/20-x.yaml:12:63 error: @2 entry/added: unknown field `ordnial` — did you mean `ordinal`?\n  fix: remove it or fix its spelling; allowed here: layer, role, sourceType, content, ordinal',
    ]);
  });

  it('an option issue is an error at `options:`, with its fix', async () => {
    const r = await run(GOOD.replace('fold: layered\n', 'fold: layered\noptions: {trailingSlot: priority}\n'));
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/20-x.yaml:4:11 error: fold option `trailingSlot` is the string "priority", which is not allowed\n  fix: use one of: "join-all", "highest-precedence", "consolidated"',
    ]);
  });

  it('a request with nothing live is an error at the request event, naming the reason', async () => {
    const r = await run(
      GOOD.replace(
        '  - off: 3\n',
        '  - off: 3\n    t: 2s\n    type: entry/removed\n    payload: {ordinal: 1}\n  - off: 4\n    t: 2s\n    type: entry/removed\n    payload: {ordinal: 2}\n  - off: 5\n',
      ),
    );
    expect(r.errors.map(formatError)).toEqual([
      'scenarios/20-x.yaml:21:5 error: request @5 renders nothing: fold `layered` did not accept it — nothing to send: no context entry is live at this point — add an `entry/added` event before the request (or do not remove every entry)\n  fix: change the events before it so the fold accepts this request, or remove the request event',
    ]);
  });
});
