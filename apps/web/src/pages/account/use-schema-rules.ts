import { useTranslation } from 'react-i18next';
import type { z } from 'zod';

import { describeMessage } from '../../lib/messages.ts';
import { translateMessage } from '../../lib/translate-message.ts';
import { schemaField } from '../../lib/zod-form.ts';

/** `field(name)` props from a shared schema, for forms sent with a custom mutation. */
export const useSchemaRules = (schema: z.ZodType) => {
  const { t } = useTranslation();
  return schemaField(schema, (text: string) => translateMessage(describeMessage(text), t));
};
