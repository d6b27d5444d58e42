/**
 * Credential headers: the common ones, and each provider's own as its adapter declares them
 * (`endpoint.credentialHeaders`), matched whatever their case; other headers are not credentials.
 */
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../providers/registry.ts';
import type { ProviderAdapter } from '../providers/types.ts';
import { credentialHeader } from './secrets.ts';

describe('credential headers', () => {
  it('the common ones, in any case', () => {
    for (const h of ['Authorization', 'proxy-authorization', 'X-Api-Key', 'api-key', 'Cookie', 'set-cookie']) expect(credentialHeader(h), h).toBe(true);
  });

  it('every provider’s own, as its adapter declares them', () => {
    const declared = (PROVIDERS as readonly ProviderAdapter[]).flatMap((p) => p.endpoint?.credentialHeaders ?? []);
    expect(declared).toEqual(expect.arrayContaining(['OpenAI-Organization', 'OpenAI-Project', 'x-goog-api-key']));
    for (const h of declared) {
      expect(credentialHeader(h), h).toBe(true);
      expect(credentialHeader(h.toUpperCase()), h).toBe(true);
    }
  });

  it('not a header that carries none', () => {
    for (const h of ['content-type', 'anthropic-version', 'anthropic-beta', 'x-goog-api-client', 'user-agent', 'authorization-hint']) expect(credentialHeader(h), h).toBe(false);
  });
});
