/**
 * What changed in a printed request, message by message: an edited line, an inserted message (not
 * every later one), a removed one, a model change, nothing — and the "Why" clause it becomes,
 * alone and aggregated over a scenario's requests (cause.ts), with a request's own sentence left
 * out when it only repeats its scenario's.
 */
import { describe, expect, it } from 'vitest';
import { promptCause, requestWhy, whyMarkdown, whyText, type Cause } from './cause.ts';
import { promptChange } from './prompt-change.ts';

const msg = (role: string, ...lines: string[]): string[] => [`  - role: ${role}`, '    content: |-', ...lines.map((l) => `      ${l}`)];
const request = (model: string, ...messages: string[][]): string[] => [`model: ${model}`, 'messages:', ...messages.flat()];

const SYSTEM = msg('system', 'You are an agent.', 'Be brief.', 'Cite files.');
const USER = msg('user', 'hello');
const ASSISTANT = msg('assistant', 'hi');

describe('promptChange', () => {
  it('names an edited message and counts its differing lines', () => {
    const after = request('m', msg('system', 'You are an agent.', 'Be very brief.', 'Cite files.'), USER);
    expect(promptChange(request('m', SYSTEM, USER), after)).toEqual({ messages: [{ status: 'changed', index: 1, role: 'system', lines: 1 }] });
  });

  it('an inserted message is one added message, later ones unchanged', () => {
    const after = request('m', SYSTEM, msg('developer', 'feedback: keep it short'), USER, ASSISTANT);
    expect(promptChange(request('m', SYSTEM, USER, ASSISTANT), after)).toEqual({ messages: [{ status: 'added', index: 2, role: 'developer', lines: 3 }] });
  });

  it('a removed message is numbered as it was before', () => {
    expect(promptChange(request('m', SYSTEM, USER, ASSISTANT), request('m', SYSTEM, ASSISTANT))).toEqual({
      messages: [{ status: 'removed', index: 2, role: 'user', lines: 3 }],
    });
  });

  it('a model change, and nothing for equal requests', () => {
    expect(promptChange(request('a', SYSTEM), request('b', SYSTEM))).toEqual({ model: { before: 'a', after: 'b' }, messages: [] });
    expect(promptChange(request('a', SYSTEM, USER), request('a', SYSTEM, USER))).toEqual({ messages: [] });
  });

  it('a replaced line and an added line in one message count two lines', () => {
    const after = request('m', msg('system', 'You are an agent!', 'Be brief.', 'Cite files.', 'Never guess.'));
    expect(promptChange(request('m', SYSTEM), after).messages).toEqual([{ status: 'changed', index: 1, role: 'system', lines: 2 }]);
  });
});

describe('the prompt clause of "Why"', () => {
  const edited = promptChange(request('m', SYSTEM, USER), request('m', msg('system', 'You are an agent.', 'Be very brief.', 'Cite files.'), USER));
  const two = promptChange(request('m', SYSTEM, USER), request('m', msg('system', 'You are an agent!', 'Be very brief.', 'Cite files.'), USER, ASSISTANT));

  it('lists each message change once with the requests it happened in', () => {
    const c = promptCause(
      [
        { offset: 21, change: edited },
        { offset: 23, change: two },
      ],
      true,
    )!;
    expect(whyText([{ kind: 'options', changes: [{ name: 'metadataLines', before: 'a', after: 'b' }] }, c])).toBe(
      'Why: fold option metadataLines changed: a → b; in the prompt: message 1 (system): up to 2 lines differ (@21, @23); message 3 (assistant) added (@23)',
    );
  });

  it('says a model change, and nothing when nothing differs', () => {
    const c = promptCause([{ offset: 5, change: promptChange(request('a', SYSTEM), request('b<x>', SYSTEM)) }], true)!;
    expect(whyMarkdown([c])).toBe('Why: in the prompt: the model `a` → `b<x>` (@5)');
    expect(promptCause([{ offset: 5, change: { messages: [] } }], true)).toBeUndefined();
  });

  it('a request whose only news is its own prompt change repeats nothing of its scenario', () => {
    const option: Cause = { kind: 'options', changes: [{ name: 'x', before: '1', after: '2' }] };
    const scenario = [option, promptCause([{ offset: 21, change: edited }], true)!];
    const own = [option, promptCause([{ offset: 21, change: edited }], false)!];
    expect(whyText(own)).toBe('Why: fold option x changed: 1 → 2; in the prompt: message 1 (system): 1 line differs');
    expect(requestWhy(scenario, own)).toBeUndefined();
    expect(requestWhy(scenario, [{ kind: 'events', edited: [20], added: [], removed: [] }])).toBeDefined();
  });

  it('role text cannot become Markdown', () => {
    const c = promptCause([{ offset: 1, change: { messages: [{ status: 'added', index: 1, role: '[x](http://e)', lines: 1 }] } }], false)!;
    expect(whyMarkdown([c])).toBe('Why: in the prompt: message 1 (\\[x\\](http://e)) added');
  });
});
