import { describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config.ts';

// CCP_PUBLIC_URL is read in one place (config.ts): the e-mail links and the webhook a Webex
// connection registers name the same address.

describe('CCP_PUBLIC_URL', () => {
  it('is one address for e-mail links and the Webex webhook, without its trailing slash', () => {
    const config = loadConfig({ CCP_PUBLIC_URL: 'https://ccp.example.com/' });
    expect(config.publicUrl).toBe('https://ccp.example.com');
    expect(config.channels.webex.publicUrl).toBe('https://ccp.example.com');
  });

  it('unset: links point at this server and no webhook is registered', () => {
    const config = loadConfig({ HOST: '127.0.0.1', PORT: '9090' });
    expect(config.publicUrl).toBe('http://127.0.0.1:9090');
    expect(config.channels.webex.publicUrl).toBeNull();
  });

  it('refuses an address that is not http(s), naming the variable', () => {
    expect(() => loadConfig({ CCP_PUBLIC_URL: 'ccp.example.com' })).toThrow(/CCP_PUBLIC_URL/);
  });
});
