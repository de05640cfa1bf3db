// The AI texts of MESSAGES carry {{name}} placeholders for the values the API fills in.

/** A message with its `{{name}}` placeholders replaced by the values given. */
export const fill = (text: string, values: Record<string, string | number>): string =>
  text.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) =>
    name in values ? String(values[name]) : placeholder,
  );
