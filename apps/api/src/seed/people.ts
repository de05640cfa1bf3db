// Learners for the demo: realistic Italian, German, English and Irish names (accents and
// apostrophes included, as spec §5 name fields allow), contacts that fit their channels.

import { CHANNEL_CONTACT } from '@ccp/schemas';
import type { TChannelKey, TLocale, TReachability } from '@ccp/schemas';

import type { Random } from './random.ts';

type Origin = 'italian' | 'german' | 'english' | 'irish';

const NAMES: Record<Origin, { first: readonly string[]; last: readonly string[] }> = {
  italian: {
    first: [
      'Giulia',
      'Marco',
      'Francesca',
      'Luca',
      'Chiara',
      'Alessandro',
      'Sofia',
      'Matteo',
      'Martina',
      'Lorenzo',
      'Elena',
      'Davide',
      'Federica',
      'Niccolò',
      'Ilaria',
      'Gabriele',
      'Beatrice',
      'Andrea',
      'Valentina',
      'Tommaso',
      'Greta',
      'Simone',
      'Aurora',
      'Riccardo',
      'Noemi',
      'Mattia',
      'Lucrezia',
      'Gianluca',
    ],
    last: [
      'Rossi',
      'Russo',
      'Ferrari',
      'Esposito',
      'Bianchi',
      'Romano',
      'Colombo',
      'Ricci',
      'Marino',
      'Greco',
      'Bruno',
      'Gallo',
      'Conti',
      'De Luca',
      'Mancini',
      'Costa',
      'Giordano',
      'Rizzo',
      'Lombardi',
      'Moretti',
      "D'Angelo",
      'Fontana',
      'Caruso',
      'Santoro',
      'Di Stefano',
      'Sanna',
      'Cattaneo',
      "Dell'Acqua",
    ],
  },
  german: {
    first: [
      'Lukas',
      'Anna',
      'Jonas',
      'Lea',
      'Felix',
      'Hannah',
      'Maximilian',
      'Lena',
      'Paul',
      'Marie',
      'Jürgen',
      'Sören',
      'Jörg',
      'Katharina',
      'Tobias',
      'Mia',
      'Björn',
      'Annika',
      'Moritz',
      'Anja',
      'Günther',
      'Frauke',
    ],
    last: [
      'Müller',
      'Schmidt',
      'Schneider',
      'Fischer',
      'Weber',
      'Meyer',
      'Wagner',
      'Becker',
      'Schulz',
      'Hoffmann',
      'Schäfer',
      'Koch',
      'Bauer',
      'Richter',
      'Klein',
      'Wolf',
      'Schröder',
      'Neumann',
      'Zimmermann',
      'Krüger',
      'Hartmann',
      'Jäger',
      'Groß-Bölting',
    ],
  },
  english: {
    first: [
      'Oliver',
      'Emily',
      'James',
      'Charlotte',
      'Harry',
      'Amelia',
      'George',
      'Olivia',
      'Jack',
      'Zoë',
      'Thomas',
      'Sophie',
      'William',
      'Grace',
      'Daniel',
      'Lucy',
      'Matthew',
      'Chloë',
      'Benjamin',
      'Ella',
      'Samuel',
      'Isabelle',
      'Noah',
      'Mary-Jane',
    ],
    last: [
      'Smith',
      'Jones',
      'Taylor',
      'Brown',
      'Williams',
      'Wilson',
      'Johnson',
      'Davies',
      'Robinson',
      'Wright',
      'Thompson',
      'Evans',
      'Walker',
      'White',
      'Roberts',
      'Green',
      'Hall',
      'Wood',
      'Jackson',
      'Clarke',
      'Harris',
      'Lewis',
      'Hughes',
      'Ashworth-Hale',
    ],
  },
  irish: {
    first: [
      'Seán',
      'Aoife',
      'Niamh',
      'Ciarán',
      'Siobhán',
      'Oisín',
      'Róisín',
      'Pádraig',
      'Caoimhe',
      'Eoin',
      'Saoirse',
      'Cian',
      'Órla',
      'Darragh',
      'Clodagh',
      'Tadhg',
      'Aisling',
      'Conor',
      'Sinéad',
      'Éabha',
      'Fionn',
      'Méabh',
      'Colm',
      'Deirdre',
    ],
    last: [
      "O'Brien",
      "O'Sullivan",
      'Murphy',
      'Kelly',
      'Byrne',
      'Ryan',
      "O'Connor",
      'Walsh',
      'McCarthy',
      "O'Neill",
      'Doyle',
      'Lynch',
      'Murray',
      'Quinn',
      'Kennedy',
      'Ó Ceallaigh',
      'Fitzgerald',
      'Brennan',
      'Nolan',
      'Gallagher',
      'Mac Giolla Phádraig',
      'McGrath',
      'Power',
      'Dunne',
    ],
  },
};

const ORIGIN_WEIGHTS = [
  ['italian', 40],
  ['irish', 22],
  ['german', 18],
  ['english', 20],
] as const;

const LOCALE_WEIGHTS: Record<Origin, readonly (readonly [TLocale, number])[]> = {
  italian: [
    ['it', 88],
    ['en', 12],
  ],
  german: [
    ['de', 82],
    ['en', 18],
  ],
  english: [
    ['en', 94],
    ['de', 3],
    ['it', 3],
  ],
  irish: [
    ['en', 96],
    ['it', 4],
  ],
};

// Spec §9: the phone input prefers Italy and Ireland, so most numbers are Italian or Irish mobiles.
const PHONE_COUNTRY: Record<Origin, readonly (readonly [string, number])[]> = {
  italian: [['it', 1]],
  irish: [['ie', 1]],
  german: [
    ['de', 6],
    ['it', 2],
    ['ie', 2],
  ],
  english: [
    ['uk', 5],
    ['ie', 4],
    ['it', 1],
  ],
};

const digits = (random: Random, count: number) => {
  let out = '';
  for (let i = 0; i < count; i += 1) out += String(random.int(0, 9));
  return out;
};

/** E.164 mobile numbers that exist (libphonenumber accepts them), as spec §5 wants them stored. */
const phoneFor = (random: Random, country: string): string => {
  switch (country) {
    case 'it':
      return `+393${random.pick(['20', '28', '33', '35', '38', '40', '47', '48', '49'])}${digits(random, 7)}`;
    case 'ie':
      return `+3538${random.pick(['3', '5', '6', '7', '9'])}${digits(random, 7)}`;
    case 'de':
      return `+491${random.pick(['51', '52', '60', '62', '70', '72', '76'])}${digits(random, 7)}`;
    default:
      return `+447${random.pick(['400', '500', '800', '900'])}${digits(random, 6)}`;
  }
};

/** "Seán Ó Ceallaigh" → "sean.oceallaigh": ASCII for the local part of an address. */
export const emailSlug = (name: string): string =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z-]/g, '');

export type DemoLearner = {
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  locale: TLocale;
  channels: TChannelKey[];
  active: boolean;
  reachability: TReachability;
  createdDaysAgo: number;
  /** Archived this many days before now; null when not archived. */
  archivedDaysAgo: number | null;
};

export type LearnerMix = {
  domain: string;
  /** Channel sets to draw from, with weights; keys from CHANNEL_KEYS. */
  channelSets: readonly (readonly [readonly TChannelKey[], number])[];
  /** Learners older than this many days at most. */
  maxAgeDays: number;
  archivedShare: number;
  inactiveShare: number;
};

/** Draws `count` learners; the n-th learner's email carries n, so addresses are unique. */
export const makeLearners = (random: Random, count: number, mix: LearnerMix): DemoLearner[] =>
  Array.from({ length: count }, (_, index) => {
    const origin = random.weighted(ORIGIN_WEIGHTS);
    const first = random.pick(NAMES[origin].first);
    const last = random.pick(NAMES[origin].last);
    const channels = [...random.weighted(mix.channelSets)];
    const needsEmail = channels.some((key) => CHANNEL_CONTACT[key] === 'email');
    const needsPhone = channels.some((key) => CHANNEL_CONTACT[key] === 'phone');
    // Many learners have both contacts even when their channels need only one.
    const email =
      needsEmail || random.chance(0.5)
        ? `${emailSlug(first)}.${emailSlug(last)}${index + 1}@${mix.domain}`
        : null;
    const phone =
      needsPhone || random.chance(0.4)
        ? phoneFor(random, random.weighted(PHONE_COUNTRY[origin]))
        : null;
    const createdDaysAgo = random.int(1, mix.maxAgeDays);
    const archived = createdDaysAgo > 2 && random.chance(mix.archivedShare);
    return {
      first_name: first,
      last_name: last,
      email,
      phone,
      locale: random.weighted(LOCALE_WEIGHTS[origin]),
      channels,
      active: !random.chance(mix.inactiveShare),
      reachability: random.weighted([
        ['reachable', 82],
        ['unreachable', 7],
        ['unknown', 11],
      ] as const),
      createdDaysAgo,
      archivedDaysAgo: archived ? random.int(1, Math.min(29, createdDaysAgo - 1)) : null,
    };
  });
