import { describe, expect, it } from 'vitest';

import { requestedFunctionOf, upgradeTexts, upgradeThanks } from './upgrade-texts.ts';

const server = new Map([
  ['upgrade.generic.title', 'Upgrade your plan'],
  ['upgrade.generic.description', 'You have reached a limit.'],
  ['upgrade.learners_limit_reached.title', 'Learners limit reached'],
  [
    'upgrade.learners_limit_reached.description',
    'Your plan includes a limited number of learners.',
  ],
  ['subscription_functions.learners', 'Learners'],
  ['upgrade.thank_you.title', 'Thank you!'],
  ['upgrade.thank_you.description', 'We have received your upgrade request.'],
]);
const local = (key: string) =>
  ({
    'modals.upgrade.generic.title': 'Local generic title',
    'modals.upgrade.generic.description': 'Local generic description',
    'modals.upgrade.thanks.title': 'Local thanks',
    'modals.upgrade.thanks.description': 'Local thanks text',
    'enum.subscriptionFunction.lessons': 'Lessons (local)',
  })[key];

describe('upgradeTexts (spec §6 key lookup)', () => {
  it('looks the 402 text up as upgrade.<key>.* in the server translations', () => {
    const texts = upgradeTexts(
      {
        message: 'Learners limit reached.',
        limit: { feature: 'learners', required: 7, limit: 6 },
      },
      server,
      local,
    );
    expect(texts).toEqual({
      textKey: 'learners_limit_reached',
      title: 'Learners limit reached',
      description: 'Your plan includes a limited number of learners.',
      feature: 'Learners',
      requestedFunction: 'learners',
      required: 7,
      limit: 6,
    });
  });

  it('finds the texts of a 402 said in Italian by the plan function of its payload', () => {
    const texts = upgradeTexts(
      {
        message: 'Limite di discenti raggiunto.',
        limit: { feature: 'learners', required: 7, limit: 6 },
      },
      server,
      local,
    );
    expect(texts).toMatchObject({
      textKey: 'learners_limit_reached',
      title: 'Learners limit reached',
      requestedFunction: 'learners',
    });
  });

  it('falls back to upgrade.generic.* when the server has no texts for the key', () => {
    const texts = upgradeTexts(
      { message: 'Lessons limit reached.', limit: { feature: 'lessons', required: 11, limit: 10 } },
      server,
      local,
    );
    expect(texts.title).toBe('Upgrade your plan');
    expect(texts.description).toBe('You have reached a limit.');
    expect(texts.feature).toBe('Lessons (local)');
  });

  it('falls back to the local locale files when the server translations are missing', () => {
    const texts = upgradeTexts({ message: 'Something else.' }, new Map(), local);
    expect(texts.textKey).toBe('something_else');
    expect(texts.title).toBe('Local generic title');
    expect(texts.description).toBe('Local generic description');
    expect(texts.requestedFunction).toBeNull();
    expect(texts.feature).toBeNull();
  });

  it('uses the generic key when the 402 carries no text', () => {
    expect(upgradeTexts({ message: null }, server, local).textKey).toBe('generic');
  });
});

describe('requestedFunctionOf', () => {
  it('takes the feature of the payload, else recognises it from the text', () => {
    expect(
      requestedFunctionOf({ message: null, limit: { feature: 'lessons', required: 1, limit: 0 } }),
    ).toBe('lessons');
    expect(requestedFunctionOf({ message: 'AI transformer limit reached.' })).toBe(
      'a-i-transformer',
    );
    expect(requestedFunctionOf({ message: 'Distribution channels limit reached.' })).toBe(
      'distribution-channels',
    );
    expect(requestedFunctionOf({ message: 'Unrelated.' })).toBeNull();
    expect(
      requestedFunctionOf({ message: null, limit: { feature: 'nope', required: 1, limit: 0 } }),
    ).toBeNull();
  });
});

describe('upgradeThanks', () => {
  it('prefers the server texts and falls back to the locale files', () => {
    expect(upgradeThanks(server, local).title).toBe('Thank you!');
    expect(upgradeThanks(new Map(), local)).toEqual({
      title: 'Local thanks',
      description: 'Local thanks text',
    });
  });
});
