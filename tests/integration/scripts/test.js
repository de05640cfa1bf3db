// `npm test -w @ccp/integration`: builds the ccp bundle the suite runs, then the suite. CI's Node 20
// leg runs the README's `npm test` with CCP_CI_DEFER_INTEGRATION=1 and runs this suite once, in
// its Node 22 leg (.ci/run; docs/decisions.md, "CI legs: where the time went").
import { spawnSync } from 'node:child_process';

if (process.env.CCP_CI_DEFER_INTEGRATION === '1') {
  console.log('integration suite: deferred to the Node 22 leg of .ci/run');
  process.exit(0);
}

/** Runs a command in the foreground; its failure is this script's. */
const run = (command, args) => {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run('npm', ['run', 'build', '-w', '@ccp/cli']);
run('npx', ['vitest', 'run', ...process.argv.slice(2)]);
