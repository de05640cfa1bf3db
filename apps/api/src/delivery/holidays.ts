import type { TLocale } from '@ccp/schemas';
import type Holidays from 'date-holidays';

// Public holidays per country from date-holidays (ISC, data CC-BY-3.0: a maintained data package,
// not a list of ours; docs/decisions.md "The learner's hours"). Loaded on first use: its data is
// 1.5 MB of rules that a company without holidays never needs. Only `public` days count (not bank,
// school or observance days), as the dates the country's own calendar gives them.

type HolidaysClass = typeof Holidays;
type HolidaysInstance = InstanceType<HolidaysClass>;

let loading: Promise<HolidaysClass> | undefined;
const holidaysClass = () => (loading ??= import('date-holidays').then((module) => module.default));

let countries: string[] | undefined;

/** The countries date-holidays has public holidays for (ISO 3166-1 alpha-2), sorted. */
export const holidayCountries = async (): Promise<string[]> => {
  const HolidaysOf = await holidaysClass();
  countries ??= Object.keys(new HolidaysOf().getCountries()).sort();
  return countries;
};

/** The name of the public holiday on a local date ('YYYY-MM-DD'), or null. */
export type HolidayLookup = (date: string) => string | null;

const instances = new Map<string, HolidaysInstance | null>();
const years = new Map<string, Map<string, string>>();

/**
 * The public holidays of a country (names in `language` where the data has them), or null when
 * date-holidays does not know the country. One year is computed at its first date and kept.
 */
export const holidayLookup = async (
  country: string,
  language: TLocale = 'en',
): Promise<HolidayLookup | null> => {
  const HolidaysOf = await holidaysClass();
  let instance = instances.get(country);
  if (instance === undefined) {
    instance = (await holidayCountries()).includes(country)
      ? new HolidaysOf(country, { types: ['public'] })
      : null;
    instances.set(country, instance);
  }
  const known = instance;
  if (!known) return null;
  return (date) => {
    const year = date.slice(0, 4);
    const key = `${country}|${language}|${year}`;
    let days = years.get(key);
    if (!days) {
      days = new Map();
      for (const holiday of known.getHolidays(year, language)) {
        // `date` is the country's own 'YYYY-MM-DD hh:mm:ss'; a day can hold two (Easter Monday
        // on a national day): the first name is enough.
        const day = holiday.date.slice(0, 10);
        if (holiday.type === 'public' && !days.has(day)) days.set(day, holiday.name);
      }
      years.set(key, days);
    }
    return days.get(date) ?? null;
  };
};
