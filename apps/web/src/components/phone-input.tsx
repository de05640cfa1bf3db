import { countryOfPhone, nationalPhone, phoneCountries, toE164 } from '@ccp/schemas';
import type { TPhoneCountry } from '@ccp/schemas';
import { Input, Select, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Props = {
  /** E.164, as stored (`+393331234567`), or what the user typed when it is not a number yet. */
  value?: string | null;
  onChange?: (value: string) => void;
  id?: string;
  'aria-invalid'?: boolean;
};

const DEFAULT_COUNTRY: TPhoneCountry = 'IT';

/** Every country with its calling code, named in the user's language (Italy and Ireland first). */
export const useCountryOptions = () => {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const names = new Intl.DisplayNames([i18n.language], { type: 'region' });
    return phoneCountries().map(({ code, callingCode }) => ({
      value: code,
      label: `${names.of(code) ?? code} +${callingCode}`,
      short: `${code} +${callingCode}`,
    }));
  }, [i18n.language]);
};

/**
 * A phone number as people write it: a country (spec §9: Italy and Ireland first) and the
 * national number, stored as E.164. What cannot be read yet is passed on as typed, so the form's
 * rule names the problem.
 */
export const PhoneInput = ({ value, onChange, id, ...aria }: Props) => {
  const { t } = useTranslation();
  const [country, setCountry] = useState<TPhoneCountry>(
    () => countryOfPhone(value) ?? DEFAULT_COUNTRY,
  );
  const [text, setText] = useState(() =>
    value && value.startsWith('+') ? nationalPhone(value) : (value ?? ''),
  );
  const options = useCountryOptions();

  const emit = (nextCountry: TPhoneCountry, nextText: string) => {
    if (nextText.trim() === '') onChange?.('');
    else onChange?.(toE164(nextText, nextCountry) ?? nextText.trim());
  };

  return (
    <Space.Compact block>
      <Select
        aria-label={t('learners.fields.phoneCountry')}
        value={country}
        onChange={(next: TPhoneCountry) => {
          setCountry(next);
          emit(next, text);
        }}
        options={options}
        optionLabelProp="short"
        showSearch
        optionFilterProp="label"
        popupMatchSelectWidth={280}
        // antd's compact group stretches its first item unless it has a width of its own.
        style={{ width: 130, flex: 'none' }}
      />
      <Input
        id={id}
        {...aria}
        style={{ flex: 1 }}
        type="tel"
        autoComplete="tel-national"
        inputMode="tel"
        value={text}
        placeholder={t('learners.fields.phonePlaceholder')}
        onChange={(event) => {
          setText(event.target.value);
          emit(country, event.target.value);
        }}
      />
    </Space.Compact>
  );
};
