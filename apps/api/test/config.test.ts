import { describe, expect, it } from 'vitest';

import { PUBLIC_URL_REQUIRED, loadConfig } from '../src/config.ts';

// CCP_PUBLIC_URL is read in one place (config.ts publicUrlFromEnv): the e-mail links, the Slack
// redirect and the webhook a Webex connection registers name the same address.

describe('CCP_PUBLIC_URL', () => {
  it('is one address for e-mail links and the Webex webhook, without its trailing slash', () => {
    const config = loadConfig({ CCP_PUBLIC_URL: 'https://ccp.example.com/' });
    expect(config.publicUrl).toBe('https://ccp.example.com');
    expect(config.channels.webex.publicUrl).toBe('https://ccp.example.com');
  });

  it('unset on a development or loopback start: links and webhooks point at this server', () => {
    const config = loadConfig({ HOST: '127.0.0.1', PORT: '9090' });
    expect(config.publicUrl).toBe('http://127.0.0.1:9090');
    expect(config.channels.webex.publicUrl).toBe('http://127.0.0.1:9090');
    expect(config.channels.googleChat.publicUrl).toBe('http://127.0.0.1:9090');
    const production = loadConfig({ NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '9090' });
    expect(production.publicUrl).toBe('http://127.0.0.1:9090');
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9090' }).publicUrl).toBe('http://localhost:9090');
  });

  it('unset on a production start reachable from elsewhere: refuses, saying what to set', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', HOST: '0.0.0.0' })).toThrow(
      PUBLIC_URL_REQUIRED,
    );
    expect(PUBLIC_URL_REQUIRED).toMatch(/CCP_PUBLIC_URL=https:\/\//);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        HOST: '0.0.0.0',
        CCP_PUBLIC_URL: 'https://ccp.example.com',
      }).publicUrl,
    ).toBe('https://ccp.example.com');
  });

  it('refuses an address that is not http(s), naming the variable', () => {
    expect(() => loadConfig({ CCP_PUBLIC_URL: 'ccp.example.com' })).toThrow(/CCP_PUBLIC_URL/);
  });
});
