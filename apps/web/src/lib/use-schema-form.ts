import type { ApiError } from '@ccp/data-provider';
import { useForm } from '@refinedev/antd';
import type { UseFormProps } from '@refinedev/antd';
import type { BaseRecord, HttpError } from '@refinedev/core';
import { App } from 'antd';
import type { FormInstance } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';

import { describeMessage } from './messages.ts';
import { isLeftToCaller, reportFailure } from './report-failure.ts';
import { translateMessage } from './translate-message.ts';
import { uiEvents } from './ui-events.ts';
import { fieldErrorsToFields, schemaField } from './zod-form.ts';

type TProps<TRecord extends BaseRecord, TVariables> = UseFormProps<
  TRecord,
  HttpError,
  TVariables
> & {
  /** The shared request schema of the resource (`@ccp/schemas`): the form's only rules. */
  schema: z.ZodType;
  /**
   * What a failed save that is not about fields says (spec §8 names one per form, e.g. "Failed to
   * create learners list…"), with the server's reason under it. Without it the failure shows as
   * the client would have shown it.
   */
  failureMessage?: string;
};

/**
 * Refine's antd `useForm` with the rules of a shared zod schema (`field(name)` gives a
 * `Form.Item` its name, rules and asterisk) and the API's 422 under the fields it names. The
 * client stays quiet about failures (`errorFeedback: 'caller'`): field errors show under their
 * fields; what no field on screen can show goes to the error modal, and other failures show as
 * the client would have shown them.
 */
export const useSchemaForm = <TRecord extends BaseRecord = BaseRecord, TVariables = object>({
  schema,
  failureMessage,
  meta,
  onMutationError,
  ...props
}: TProps<TRecord, TVariables>) => {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const form = useForm<TRecord, HttpError, TVariables>({
    ...props,
    meta: { ...meta, errorFeedback: 'caller' },
    // The API's field errors are placed below (with the fields that are not on screen handled).
    disableServerSideValidation: true,
    errorNotification: false,
    onMutationError: (error, variables, context, isAutoSave) => {
      const shownOnFields = showFieldErrors(form.form, error);
      if (!shownOnFields) {
        if (failureMessage && isLeftToCaller(error)) {
          notification.error({
            key: `ccp:form-failed:${failureMessage}`,
            message: failureMessage,
            description: error.message || undefined,
          });
        } else reportFailure(error);
      }
      onMutationError?.(error, variables, context, isAutoSave);
    },
  });
  const field = useMemo(
    () => schemaField(schema, (text) => translateMessage(describeMessage(text), t)),
    [schema, t],
  );
  return { ...form, field };
};

type TFormLike = Pick<FormInstance, 'getFieldsError' | 'setFields'>;

/**
 * A 422's field errors under their fields; what no field on screen can show goes to the error
 * modal. Answers false for any other failure, which the caller shows.
 */
export const showFieldErrors = (form: TFormLike, error: HttpError): boolean => {
  const { errors } = error as Partial<ApiError>;
  if (error.statusCode !== 422 || !errors) return false;
  const shown = form.getFieldsError().map((entry) => entry.name);
  const { fields, unmatched } = fieldErrorsToFields(errors, shown);
  form.setFields(fields);
  if (unmatched.length > 0 || fields.length === 0) {
    uiEvents.emit('errorModal', describeMessage(unmatched[0] ?? error.message));
  }
  return true;
};
