import ts from 'typescript';

// Finds user-facing text written straight into JSX instead of going through i18next: JSX text,
// string literals in JSX expressions, and string values of props that people read.

/** Props whose value is shown to (or read out for) the user. */
export const UI_TEXT_PROPS = new Set([
  'title',
  'placeholder',
  'label',
  'aria-label',
  'aria-description',
  'alt',
  'tooltip',
  'message',
  'description',
  'content',
  'okText',
  'cancelText',
  'extra',
  'help',
  'addonBefore',
  'addonAfter',
  'emptyText',
  'subTitle',
]);

/** Strings that are not language: no letters at all, or one of these symbols. */
const ALLOWED = new Set(['·', '—', '–', '/', '|', '×', '…', '©', '→', '←', '•']);

const isLanguage = (text: string): boolean => {
  const trimmed = text.trim();
  if (trimmed === '' || ALLOWED.has(trimmed)) return false;
  return /\p{L}/u.test(trimmed);
};

export type TLiteralFinding = { file: string; line: number; text: string; where: string };

const lineOf = (source: ts.SourceFile, node: ts.Node) =>
  source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

/** String literals an expression may evaluate to (through ?:, &&, ||, ??, parentheses). */
const literalsOf = (expression: ts.Expression): ts.StringLiteralLike[] => {
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) {
    return [expression];
  }
  if (ts.isParenthesizedExpression(expression)) return literalsOf(expression.expression);
  if (ts.isConditionalExpression(expression)) {
    return [...literalsOf(expression.whenTrue), ...literalsOf(expression.whenFalse)];
  }
  if (
    ts.isBinaryExpression(expression) &&
    [
      ts.SyntaxKind.AmpersandAmpersandToken,
      ts.SyntaxKind.BarBarToken,
      ts.SyntaxKind.QuestionQuestionToken,
    ].includes(expression.operatorToken.kind)
  ) {
    return [...literalsOf(expression.left), ...literalsOf(expression.right)];
  }
  if (ts.isTemplateExpression(expression)) {
    // `${count} items`: the literal parts are language too.
    const parts = [expression.head.text, ...expression.templateSpans.map((s) => s.literal.text)];
    return isLanguage(parts.join(' ')) ? [ts.factory.createStringLiteral(parts.join('…'))] : [];
  }
  return [];
};

export const scanSource = (file: string, code: string): TLiteralFinding[] => {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const findings: TLiteralFinding[] = [];
  const report = (node: ts.Node, text: string, where: string) =>
    findings.push({ file, line: lineOf(source, node), text: text.trim(), where });

  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && isLanguage(node.text)) {
      report(node, node.text, 'JSX text');
    } else if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      for (const literal of literalsOf(node.expression)) {
        if (isLanguage(literal.text)) report(node, literal.text, 'JSX expression');
      }
    } else if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText(source);
      if (UI_TEXT_PROPS.has(name)) {
        const { initializer } = node;
        const literals = ts.isStringLiteral(initializer)
          ? [initializer]
          : ts.isJsxExpression(initializer) && initializer.expression
            ? literalsOf(initializer.expression)
            : [];
        for (const literal of literals) {
          if (isLanguage(literal.text)) report(node, literal.text, `prop ${name}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
};

/** Translation keys used literally: t('a.b'), i18n.t('a.b'), titleKey="a.b". */
export const usedKeys = (file: string, code: string): { key: string; line: number }[] => {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const keys: { key: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const named =
        (ts.isIdentifier(callee) && callee.text === 't') ||
        (ts.isPropertyAccessExpression(callee) && callee.name.text === 't');
      const [first] = node.arguments;
      if (
        named &&
        first &&
        (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))
      ) {
        keys.push({ key: first.text, line: lineOf(source, node) });
      }
    }
    if (
      ts.isJsxAttribute(node) &&
      node.name.getText(source) === 'titleKey' &&
      node.initializer &&
      ts.isStringLiteral(node.initializer)
    ) {
      keys.push({ key: node.initializer.text, line: lineOf(source, node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return keys;
};
