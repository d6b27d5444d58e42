/** The generic card preview of an event a fold does not describe: text, else the fields as YAML — never raw JSON. */
import { describe, expect, it } from 'vitest';
import { defaultPreview } from './hooks.ts';

describe('defaultPreview', () => {
  it('shows the first string field', () => {
    expect(defaultPreview('entry/added', { layer: 'L1', ordinal: 3 })).toBe('L1');
  });

  it('writes fields without text the way the scenario file does, not as JSON', () => {
    expect(defaultPreview('entry/removed', { ordinal: 10 })).toBe('ordinal: 10');
    expect(defaultPreview('x', { ids: [1, 2], at: { line: 3, ok: true }, none: null })).toBe('ids: [1, 2], at: {line: 3, ok: true}, none: null');
    expect(defaultPreview('x', { ordinal: 10 })).not.toMatch(/[{"]/);
  });

  it('falls back to the event type for an empty payload', () => {
    expect(defaultPreview('agent/paused', {})).toBe('agent/paused');
    expect(defaultPreview('agent/paused', null)).toBe('agent/paused');
  });
});
