import { phoneCountry } from './phone-number.ts';

// The country of national phone numbers of import files (`ccp learners import --default-country
// IT`, the upload's `default_country`); how a phone cell is read is in import-phone.ts.

/** A two-letter country the phone rules know (any case). */
export const isKnownCountry = (country: string): boolean => phoneCountry(country) !== undefined;
