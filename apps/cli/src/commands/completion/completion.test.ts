import { describe, expect, it } from 'vitest';

import { runInProcess } from '../../lib/test-io.ts';

describe('ccp completion', () => {
  it('writes bash completion from the program’s commands and options', async () => {
    const result = await runInProcess(['completion', 'bash']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('complete -o default -F _ccp_completion ccp');
    expect(result.stdout).toContain(
      '"learners import") subs="status cancel"; opts="--list --default-country --default-channels --default-language --encoding --map --phone-country --dry-run -n --errors-out --no-wait --again --cancel-on-interrupt --json --help"',
    );
    expect(result.stdout).toContain(
      '"") subs="login logout whoami courses learners lists insights tokens completion"',
    );
  });

  it('writes zsh (through bashcompinit) and fish scripts; refuses another shell', async () => {
    expect((await runInProcess(['completion', 'zsh'])).stdout).toMatch(/^#compdef ccp\n/);
    const fish = (await runInProcess(['completion', 'fish'])).stdout;
    expect(fish).toContain(
      "complete -c ccp -n '__fish_use_subcommand' -a 'login logout whoami courses learners lists insights tokens completion'",
    );
    expect(fish).toContain('-l dry-run');
    const other = await runInProcess(['completion', 'powershell']);
    expect(other).toMatchObject({
      code: 2,
      stderr: 'Unknown shell "powershell": bash, zsh or fish.\n',
    });
  });
});
