/** The one escaper: every character that could start markup or end an attribute, and nothing else. */
import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape.ts';

describe('escapeHtml', () => {
  it('writes & < > " \' as entities and keeps every other character', () => {
    expect(escapeHtml(`<img src="x" onerror='a&b'>✂ é`)).toBe('&lt;img src=&quot;x&quot; onerror=&#39;a&amp;b&#39;&gt;✂ é');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
    expect(escapeHtml('')).toBe('');
  });
});
