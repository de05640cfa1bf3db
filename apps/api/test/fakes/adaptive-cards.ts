import { createRequire } from 'node:module';
import path from 'node:path';

// Adaptive Cards checked by Microsoft's own `adaptivecards` package, as a host parses them at a
// given schema version (Webex: 1.3; Teams: 1.5 with at most `maxActions` actions shown).

type AcModule = {
  AdaptiveCard: new () => { parse: (json: unknown, context: unknown) => void };
  SerializationContext: new (version: unknown) => {
    eventCount: number;
    getEventAt: (index: number) => { message: string };
  };
  Versions: Record<string, unknown>;
};

const require = createRequire(import.meta.url);
// The package's ESM build imports without file extensions (not loadable by Node); its UMD build is.
const ac = require(
  path.join(path.dirname(require.resolve('adaptivecards/package.json')), 'dist/adaptivecards.js'),
) as AcModule;

/** What the host would report parsing `card` at `version` ("1.3"), plus structural limits. */
export const adaptiveCardProblems = (
  card: Record<string, any>,
  { version, maxActions }: { version: string; maxActions?: number },
): string[] => {
  const problems: string[] = [];
  if (card.type !== 'AdaptiveCard') problems.push('not an AdaptiveCard');
  if (Number(card.version) > Number(version)) problems.push(`version ${card.version} > ${version}`);
  const context = new ac.SerializationContext(ac.Versions[`v${version.replace('.', '_')}`]);
  new ac.AdaptiveCard().parse(card, context);
  for (let index = 0; index < context.eventCount; index += 1) {
    problems.push(context.getEventAt(index).message);
  }
  const actions = (card.actions ?? []) as unknown[];
  if (maxActions !== undefined && actions.length > maxActions) {
    problems.push(`${actions.length} actions > ${maxActions}`);
  }
  return problems;
};
