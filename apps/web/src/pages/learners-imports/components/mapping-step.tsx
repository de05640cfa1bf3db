import {
  IMPORT_COLUMN_TARGETS,
  IMPORT_DEFAULT_COUNTRY,
  IMPORT_ENCODINGS,
  IMPORT_MULTI_COLUMNS,
  LOCALES,
  applyImportPhoneCountries,
  checkImportRow,
  importPreviewRow,
  matchImportHeader,
} from '@ccp/schemas';
import type {
  TChannel,
  TImportColumn,
  TImportColumnOverrides,
  TImportColumnTarget,
  TImportEncoding,
  TImportPhoneCountries,
  TImportPreviewRow,
} from '@ccp/schemas';
import { useList } from '@refinedev/core';
import { Alert, Form, Select, Table, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { useCountryOptions } from '../../../components/phone-input.tsx';
import { describeMessage } from '../../../lib/messages.ts';
import { translateMessage } from '../../../lib/translate-message.ts';
import type { TFilePreview } from '../preview.ts';

/** What the user chose on the mapping step. */
export type TMappingChoice = {
  /** The field of each header of the file, by position; `ignore` leaves it out. */
  targets: TImportColumnTarget[];
  defaultChannels: string[];
  defaultLocale: string | undefined;
  defaultCountry: string;
  /**
   * The country of national numbers chosen for a phone column, by position; a column without
   * one is read in the row's country, else defaultCountry (IMPORT_PHONE_COUNTRY_PRECEDENCE).
   */
  phoneCountries: Partial<Record<number, string>>;
};

/** The automatic matching of a header, as the choice starts. */
export const initialChoice = (header: readonly string[], locale: string): TMappingChoice => {
  const matched = matchImportHeader(header);
  const targets = header.map<TImportColumnTarget>(
    (_, index) => matched.matches.find((match) => match.index === index)?.column ?? 'ignore',
  );
  return {
    targets,
    defaultChannels: [],
    defaultLocale: locale,
    defaultCountry: IMPORT_DEFAULT_COUNTRY,
    phoneCountries: {},
  };
};

/**
 * The header overrides the server needs to read the file as the user mapped it: every header
 * whose field differs from the automatic matching. Headers are named as the file writes them.
 */
export const overridesOf = (header: readonly string[], choice: TMappingChoice) => {
  const automatic = initialChoice(header, '').targets;
  const changed = (index: number) => (choice.targets[index] ?? 'ignore') !== automatic[index];
  // An override of a phone (or country) column makes the server read only the overridden
  // headers of that column: the others the page shows for it are sent too.
  const overriddenMulti = new Set(
    header.flatMap((_, index) => {
      const target = choice.targets[index] ?? 'ignore';
      return changed(index) && (IMPORT_MULTI_COLUMNS as readonly string[]).includes(target)
        ? [target]
        : [];
    }),
  );
  const overrides: TImportColumnOverrides = {};
  header.forEach((name, index) => {
    const target = choice.targets[index] ?? 'ignore';
    if ((changed(index) || overriddenMulti.has(target)) && name.trim() !== '') {
      overrides[name] = target;
    }
  });
  return overrides;
};

/**
 * The upload's `phone_countries`: the chosen country of each column the file is read with as a
 * phone, by header as the file writes it. A column without a choice is not sent, so the file's
 * country shown as its default never outranks a row's country column.
 */
export const phoneCountriesOf = (
  header: readonly string[],
  choice: TMappingChoice,
): TImportPhoneCountries => {
  const countries: TImportPhoneCountries = {};
  header.forEach((name, index) => {
    const country = choice.phoneCountries[index];
    if (country && choice.targets[index] === 'phone' && name.trim() !== '') {
      countries[name] = country;
    }
  });
  return countries;
};

/** The mapping as the shared matcher reads it, with the defaults standing in for columns. */
export const mappingOf = (header: readonly string[], choice: TMappingChoice) => {
  const defaulted: TImportColumn[] = choice.defaultChannels.length > 0 ? ['channels'] : [];
  const matched = matchImportHeader(header, overridesOf(header, choice), defaulted);
  // The page offers a country only beside phone columns: no problem to report here.
  const { columns } = applyImportPhoneCountries(matched, phoneCountriesOf(header, choice));
  return { ...matched, columns };
};

type Props = {
  preview: TFilePreview;
  choice: TMappingChoice;
  onChange: (choice: TMappingChoice) => void;
  /** A CSV read again in another encoding than the guess. */
  onEncoding?: (encoding: TImportEncoding) => void;
};

/** `+353 87 555 0199` with its country and type, as it will be stored. */
const PhoneCell = ({ phone }: { phone: TImportPreviewRow['phone'] }) => {
  const { t } = useTranslation();
  if (!phone) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <span className="import-mapping__phone">
      <Typography.Text code>{phone.e164}</Typography.Text>{' '}
      {phone.country ? <Tag>{phone.country}</Tag> : null}
      <Typography.Text type="secondary">
        {t(`learnersImport.phoneType.${phone.type}`)}
      </Typography.Text>
    </span>
  );
};

/**
 * The mapping step: each column of the file with its first values and the learner field it
 * fills, the defaults for rows without a channel, a language or an international prefix, the
 * problems the shared matcher finds, and the first rows checked by the shared row rules.
 */
export const MappingStep = ({ preview, choice, onChange, onEncoding }: Props) => {
  const { t, i18n } = useTranslation();
  const countries = useCountryOptions();
  const { result: channels } = useList<TChannel>({
    resource: 'channels',
    pagination: { mode: 'off' },
  });
  const say = (text: string) => translateMessage(describeMessage(text), t);
  // A row's reason is `field: message` (or a row-level message): both in the user's language.
  const sayReason = (reason: string) => {
    const [, field, message] = /^(\w+): (.*)$/s.exec(reason) ?? [];
    return field && message && (IMPORT_COLUMN_TARGETS as readonly string[]).includes(field)
      ? `${t(`learnersImport.fields.${field}`)}: ${say(message)}`
      : say(reason);
  };
  const channelName = (key: string) =>
    channels.data.find((channel) => channel.key === key)?.name ?? key;
  const mapping = useMemo(() => mappingOf(preview.header, choice), [preview.header, choice]);
  const rowOptions = {
    defaultCountry: choice.defaultCountry,
    defaultChannels: choice.defaultChannels,
    defaultLocale: choice.defaultLocale,
  };
  const fieldOptions = IMPORT_COLUMN_TARGETS.map((target) => ({
    value: target,
    label: t(`learnersImport.fields.${target}`),
  }));
  const setPhoneCountry = (index: number, country: string | undefined) =>
    onChange({ ...choice, phoneCountries: { ...choice.phoneCountries, [index]: country } });
  // What a phone column without its own country is read in: the row's country column, if the
  // file has one, else the file's country.
  const fileCountry =
    new Intl.DisplayNames([i18n.language], { type: 'region' }).of(choice.defaultCountry) ??
    choice.defaultCountry;
  const phoneCountryFallback = t(
    mapping.columns.country === undefined
      ? 'learnersImport.mapping.phoneCountryAsFile'
      : 'learnersImport.mapping.phoneCountryAsRow',
    { country: fileCountry },
  );
  const hasPhone = choice.targets.includes('phone');
  const setTarget = (index: number, target: TImportColumnTarget) =>
    onChange({
      ...choice,
      targets: choice.targets.map((current, at) => (at === index ? target : current)),
    });

  const columns = preview.header.map((name, index) => ({
    key: index,
    header: name,
    samples: preview.rows
      .map((row) => row[index] ?? '')
      .filter((value) => value.trim() !== '')
      .slice(0, 3),
    target: choice.targets[index] ?? 'ignore',
  }));

  return (
    <div className="import-mapping">
      <Typography.Paragraph type="secondary">
        {t('learnersImport.mapping.intro')}
      </Typography.Paragraph>
      <Table
        className="import-mapping__columns"
        size="small"
        pagination={false}
        rowKey="key"
        dataSource={columns}
        columns={[
          {
            title: t('learnersImport.mapping.column'),
            dataIndex: 'header',
            render: (header: string) => <Typography.Text strong>{header || '—'}</Typography.Text>,
          },
          {
            title: t('learnersImport.mapping.samples'),
            dataIndex: 'samples',
            // Narrow screens keep the column and its field side by side.
            responsive: ['lg'],
            render: (samples: string[]) =>
              samples.length > 0 ? (
                <Typography.Text type="secondary" ellipsis>
                  {samples.join(' · ')}
                </Typography.Text>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
          {
            title: t('learnersImport.mapping.field'),
            dataIndex: 'target',
            width: 210,
            render: (target: TImportColumnTarget, row) => (
              <Select
                aria-label={t('learnersImport.mapping.fieldOf', { column: row.header })}
                value={target}
                options={fieldOptions}
                onChange={(next: TImportColumnTarget) => setTarget(row.key, next)}
                style={{ width: '100%' }}
              />
            ),
          },
          ...(hasPhone
            ? [
                {
                  title: t('learnersImport.mapping.phoneCountry'),
                  dataIndex: 'target',
                  key: 'phoneCountry',
                  width: 230,
                  render: (target: TImportColumnTarget, row: (typeof columns)[number]) =>
                    target === 'phone' ? (
                      <Select
                        aria-label={t('learnersImport.mapping.phoneCountryOf', {
                          column: row.header,
                        })}
                        value={choice.phoneCountries[row.key]}
                        placeholder={phoneCountryFallback}
                        onChange={(next?: string) => setPhoneCountry(row.key, next)}
                        options={countries}
                        allowClear
                        showSearch
                        optionFilterProp="label"
                        style={{ width: '100%' }}
                      />
                    ) : null,
                },
              ]
            : []),
        ]}
      />

      <Form layout="vertical" className="import-mapping__defaults">
        {preview.encoding ? (
          <Form.Item
            label={t('learnersImport.mapping.encoding')}
            extra={t(`learnersImport.mapping.encodingBy.${preview.encoding.by}`)}
          >
            <Select
              aria-label={t('learnersImport.mapping.encoding')}
              value={preview.encoding.encoding}
              onChange={(next: TImportEncoding) => onEncoding?.(next)}
              options={IMPORT_ENCODINGS.map((encoding) => ({
                value: encoding,
                label: t(`learnersImport.encodings.${encoding}`),
              }))}
            />
          </Form.Item>
        ) : null}
        <Form.Item
          label={t('learnersImport.mapping.defaultChannels')}
          extra={t('learnersImport.mapping.defaultChannelsHelp')}
        >
          <Select
            mode="multiple"
            aria-label={t('learnersImport.mapping.defaultChannels')}
            value={choice.defaultChannels}
            onChange={(next: string[]) => onChange({ ...choice, defaultChannels: next })}
            options={channels.data.map((channel) => ({ value: channel.key, label: channel.name }))}
            placeholder={t('learnersImport.mapping.defaultChannelsPlaceholder')}
            allowClear
          />
        </Form.Item>
        <Form.Item
          label={t('learnersImport.mapping.defaultLocale')}
          extra={t('learnersImport.mapping.defaultLocaleHelp')}
        >
          <Select
            aria-label={t('learnersImport.mapping.defaultLocale')}
            value={choice.defaultLocale}
            onChange={(next: string) => onChange({ ...choice, defaultLocale: next })}
            options={LOCALES.map((locale) => ({
              value: locale,
              label: t(`enum.locale.${locale}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          label={t('learnersImport.mapping.defaultCountry')}
          extra={t('learnersImport.mapping.defaultCountryHelp')}
        >
          <Select
            aria-label={t('learnersImport.mapping.defaultCountry')}
            value={choice.defaultCountry}
            onChange={(next: string) => onChange({ ...choice, defaultCountry: next })}
            options={countries}
            showSearch
            optionFilterProp="label"
          />
        </Form.Item>
      </Form>

      {mapping.problems.length > 0 ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={t('learnersImport.mapping.problems')}
          description={
            <ul className="plain-list">
              {mapping.problems.map((problem) => (
                <li key={problem}>{say(problem)}</li>
              ))}
            </ul>
          }
        />
      ) : (
        <>
          <Typography.Title level={5}>{t('learnersImport.mapping.check')}</Typography.Title>
          <Table
            size="small"
            pagination={false}
            rowKey="line"
            scroll={{ x: true }}
            dataSource={preview.rows.map((cells, index) => {
              const check = checkImportRow(
                cells,
                mapping.columns,
                preview.header.length,
                undefined,
                rowOptions,
              );
              // The line a person sees: the header is line 1 (a CSV's quoted line breaks aside).
              const line = index + 2;
              return { line, check, row: check.ok ? importPreviewRow(line, check) : null };
            })}
            columns={[
              { title: t('learnersImport.mapping.line'), dataIndex: 'line', width: 60 },
              {
                title: t('learnersImport.mapping.learner'),
                render: (_, { row }) =>
                  row ? (
                    <>
                      <Typography.Text
                        strong
                      >{`${row.first_name} ${row.last_name}`}</Typography.Text>
                      {row.email ? (
                        <div>
                          <Typography.Text type="secondary">{row.email}</Typography.Text>
                        </div>
                      ) : null}
                    </>
                  ) : (
                    t('learnersImport.mapping.notImported')
                  ),
              },
              {
                title: t('learnersImport.mapping.phone'),
                render: (_, { row }) => (row ? <PhoneCell phone={row.phone} /> : ''),
              },
              {
                title: t('learnersImport.mapping.channels'),
                render: (_, { row }) => (row ? row.channels.map(channelName).join(', ') : ''),
              },
              {
                title: t('learnersImport.mapping.language'),
                render: (_, { row }) => (row ? t(`enum.locale.${row.locale}`) : ''),
              },
              {
                title: t('learnersImport.mapping.state'),
                render: (_, { check }) =>
                  check.ok ? (
                    <span className="import-mapping__reasons">
                      <Tag color={check.warnings.length > 0 ? 'gold' : 'green'}>
                        {t(
                          check.warnings.length > 0
                            ? 'learnersImport.mapping.validWithWarning'
                            : 'learnersImport.mapping.valid',
                        )}
                      </Tag>
                      {check.warnings.map((warning) => (
                        <Typography.Text key={warning} type="warning">
                          {sayReason(warning)}
                        </Typography.Text>
                      ))}
                    </span>
                  ) : (
                    <span className="import-mapping__reasons">
                      {check.reasons.map((reason) => (
                        <Typography.Text key={reason} type="danger">
                          {sayReason(reason)}
                        </Typography.Text>
                      ))}
                    </span>
                  ),
              },
            ]}
          />
        </>
      )}
    </div>
  );
};
