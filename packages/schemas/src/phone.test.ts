import { describe, expect, it } from 'vitest';

import {
  isValidPhone,
  normalizePhoneForCreate,
  normalizePhoneForUpdate,
  normalizePhoneFromServer,
} from './phone.ts';

describe('normalizePhoneForCreate (spec §5: sent only if longer than one character)', () => {
  it.each([
    [undefined, undefined],
    [null, undefined],
    ['', undefined],
    ['+', undefined],
    [' + ', undefined],
    ['7', undefined],
    ['--', undefined],
    ['( + )', undefined],
  ])('does not send %j', (raw, expected) => {
    expect(normalizePhoneForCreate(raw)).toBe(expected);
  });

  it('keeps two characters (then refused by isValidPhone)', () => {
    expect(normalizePhoneForCreate('+3')).toBe('+3');
    expect(isValidPhone('+3')).toBe(false);
  });

  it.each([
    ['+39 333 123 4567', '+393331234567'],
    ['+353 (87) 123.45-67', '+353871234567'],
    ['  +44\t20 7946 0958 ', '+442079460958'],
  ])('strips separators from %j', (raw, expected) => {
    expect(normalizePhoneForCreate(raw)).toBe(expected);
  });

  it('leaves other characters for the validity check to refuse', () => {
    expect(normalizePhoneForCreate('+39 333 abc')).toBe('+39333abc');
  });
});

describe('normalizePhoneForUpdate (spec §5: one character or fewer is null)', () => {
  it.each([[undefined], [null], [''], ['+'], ['1']])('sends %j as null', (raw) => {
    expect(normalizePhoneForUpdate(raw)).toBeNull();
  });

  it('cleans longer values as on create', () => {
    expect(normalizePhoneForUpdate('+39 333-123-4567')).toBe('+393331234567');
  });
});

describe('normalizePhoneFromServer (spec §5: a fetched phone lacking a plus gets one)', () => {
  it.each([
    ['393331234567', '+393331234567'],
    ['+393331234567', '+393331234567'],
    [' 393331234567 ', '+393331234567'],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%j → %j', (raw, expected) => {
    expect(normalizePhoneFromServer(raw)).toBe(expected);
  });
});

describe('isValidPhone', () => {
  it.each([
    ['+123456', true],
    ['+123456789012345', true],
    ['+12345', false],
    ['+1234567890123456', false],
    ['393331234567', false],
    ['++393331234567', false],
    ['+39333123456a', false],
    ['+39 333 123 4567', false],
  ])('%j → %s (a plus and 6 to 15 digits)', (phone, expected) => {
    expect(isValidPhone(phone)).toBe(expected);
  });
});
