import { MESSAGES } from '@ccp/schemas';
import { describe, expect, it } from 'vitest';

import { describeMessage, reactionMessage } from './messages.ts';
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

describe('reactionMessage', () => {
  it("translates the client's own texts by the key the reaction carries", () => {
    const slowDown = reactionMessage({ message: MESSAGES.slowDown, key: 'slowDown' });
    expect(translateMessage(slowDown, t)).toBe('Ehi, rallenta.');
    const prefixed = reactionMessage({
      message: `${MESSAGES.serverErrorPrefix} Konflikt.`,
      key: 'serverErrorPrefix',
      detail: 'Konflikt.',
    });
    expect(translateMessage(prefixed, t)).toBe('Errore del server: Konflikt.');
  });

  it('shows a server text the server already translated as it came', () => {
    const message = reactionMessage({ message: "L'indirizzo e-mail deve essere valido." });
    expect(translateMessage(message, t)).toBe("L'indirizzo e-mail deve essere valido.");
  });

  it('still translates a spec text an English-only server sent', () => {
    expect(reactionMessage({ message: MESSAGES.slowDown }).key).toBe('slowDown');
  });
});
