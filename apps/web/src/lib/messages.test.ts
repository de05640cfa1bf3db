import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { describeMessage } from './messages.ts';
import { translateMessage } from './translate-message.ts';

const italian: Record<string, string> = {
  'validation.slowDown': 'Ehi, rallenta.',
  'validation.serverErrorPrefix': 'Errore del server:',
};
const t = (key: string, options: { defaultValue: string }) => italian[key] ?? options.defaultValue;

describe('describeMessage / translateMessage', () => {
  it('translates the spec texts by their key', () => {
    const message = describeMessage(MESSAGES.slowDown);
    expect(message.key).toBe('slowDown');
    expect(translateMessage(message, t)).toBe('Ehi, rallenta.');
  });

  it('keeps the detail of "Server error: …"', () => {
    const message = describeMessage(`${MESSAGES.serverErrorPrefix} Teapot.`);
    expect(translateMessage(message, t)).toBe('Errore del server: Teapot.');
  });

  it('shows unknown server texts as sent', () => {
    expect(translateMessage(describeMessage('Learners limit reached.'), t)).toBe(
      'Learners limit reached.',
    );
  });
});
