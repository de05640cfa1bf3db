import { useMemo } from 'react';

import { currentLanguage } from './texts.ts';

/** A country's name from its ISO code in the user's language (Intl.DisplayNames): 'IT' → 'Italia'. */
export const useCountryName = () =>
  useMemo(() => {
    const names = new Intl.DisplayNames([currentLanguage()], { type: 'region' });
    return (code: string) => names.of(code) ?? code;
  }, []);
