import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

// The English messages the server can answer with, read from its source (French users
// get every one of them in French). i18nCoverage.test.ts checks each against the catalogue; run
// `npx tsx server/test/i18nMessageSites.ts` to list them with where they are written.
//
// Messages are found at the places the server writes them, not by guessing from the text:
//  - the message argument of `new HttpError(status, message)` and `fieldError(field, message)`,
//    and the values of `validationError({field: [message]})`;
//  - `message: …` in object literals: zod options ({message}), addIssue, success answers
//    ({message}) and bulk results' per-item messages; and `decision_message: …`, the reason the
//    console itself writes on a request it denies or fails (stored, then shown and mailed);
//  - the message argument of zod's checks (`.refine(check, 'message')`, `.min(1, 'message')`…);
//  - constants named like messages (UPPER_CASE holding a sentence, …_MESSAGE, …_INVALID) and
//    tables named …Messages (the onboarding gate's, the framework errors');
//  - when one of these sites names a constant or calls a function instead of writing the text
//    (`new HttpError(409, NOT_PENDING)`, `new HttpError(409, emailTaken(email))`), the strings
//    that constant holds or that function returns, wherever in the server it is declared.
// A string's variable parts (`${seconds}`) become `:placeholders`, as the catalogue writes them.

export interface MessageSite {
  /** The English message, variable parts as `:name` (`Too many attempts. Try again in :seconds seconds.`). */
  template: string;
  /** An instance of it, variable parts filled in, to ask the catalogue about. */
  sample: string;
  /** Where it is written: `src/nodes/schemas.ts:21`. */
  where: string;
}

const SERVER_DIR = join(import.meta.dirname, '..');
const SOURCE_DIR = join(SERVER_DIR, 'src');

/**
 * Source that never writes an answer's message: the catalogue itself (its French is not the
 * server's English), the configuration and command line (errors for the operator, at start),
 * the demo seed, and the in-process Kubernetes sandbox (a stand-in for the cluster's API, whose
 * texts are Kubernetes', not ours).
 */
const NOT_ANSWERS = ['i18n/', 'config/', 'cli.ts', 'main.ts', 'db/seed.ts', 'cluster/sandbox/'];

const ZOD_CHECKS = new Set(['refine', 'superRefine', 'min', 'max', 'length', 'regex', 'email', 'url', 'uuid', 'int', 'positive', 'nonnegative', 'nonempty', 'startsWith', 'endsWith', 'includes', 'check']);

// A string that reads as a sentence for a person, not a key, a path or a format.
// ("12 personal access tokens revoked.", ":count personal access tokens revoked." count: a
// number or a placeholder, then words.)
const looksLikeSentence = (text: string) =>
  /^(?:[A-Z]|(?::[a-z_]+|\d+) [a-z])/.test(text) && /\s/.test(text.trim()) && !/^[A-Z_]+$/.test(text);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A template expression's text with `${expr}` as `:name` (the expression's last identifier). */
function templateText(node: ts.TemplateExpression): { template: string; sample: string } {
  let template = node.head.text;
  let sample = node.head.text;
  node.templateSpans.forEach((span, index) => {
    const words = span.expression.getText().match(/[A-Za-z_]+/g) ?? ['value'];
    const name = words[words.length - 1].replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
    template += `:${name}${span.literal.text}`;
    sample += `x${index + 1}${span.literal.text}`;
  });
  return { template, sample };
}

interface Found {
  strings: { template: string; sample: string; node: ts.Node }[];
  /** Constants and functions the message site names instead of writing the text. */
  references: string[];
}

/** The message texts an expression can give (both branches of `?:`, `??`, `||`), and what it refers to. */
function messagesOf(expression: ts.Expression | undefined, found: Found = { strings: [], references: [] }): Found {
  if (!expression) return found;
  if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) {
    found.strings.push({ template: expression.text, sample: expression.text, node: expression });
  } else if (ts.isTemplateExpression(expression)) {
    found.strings.push({ ...templateText(expression), node: expression });
  } else if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression)) {
    messagesOf(expression.expression, found);
  } else if (ts.isConditionalExpression(expression)) {
    messagesOf(expression.whenTrue, found);
    messagesOf(expression.whenFalse, found);
  } else if (ts.isBinaryExpression(expression) && expression.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    // 'text ' + `more ${x}`: one message, a part that is not text is a placeholder.
    const parts = [expression.left, expression.right].map((part) => messagesOf(part).strings);
    if (parts.every((strings) => strings.length <= 1) && parts.some((strings) => strings.length === 1)) {
      const [left, right] = parts.map((strings) => strings[0] ?? { template: ':value', sample: 'x9' });
      found.strings.push({ template: left.template + right.template, sample: left.sample + right.sample, node: expression });
    }
  } else if (ts.isBinaryExpression(expression) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(expression.operatorToken.kind)) {
    messagesOf(expression.left, found);
    messagesOf(expression.right, found);
  } else if (ts.isIdentifier(expression)) {
    found.references.push(expression.text);
  } else if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.name)) {
    // `messages.wrongEmail`, `result.message`: the property may name a constant of that name.
    found.references.push(expression.name.text);
  } else if (ts.isElementAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
    // `onboardingMessages[step]`: every value of the table.
    found.references.push(expression.expression.text);
  } else if (ts.isCallExpression(expression)) {
    const callee = expression.expression;
    if (ts.isIdentifier(callee)) found.references.push(callee.text);
  } else if (ts.isArrayLiteralExpression(expression)) {
    for (const element of expression.elements) messagesOf(element as ts.Expression, found);
  } else if (ts.isObjectLiteralExpression(expression)) {
    for (const property of expression.properties) if (ts.isPropertyAssignment(property)) messagesOf(property.initializer, found);
  }
  return found;
}

/** The strings a function returns (its expression body, its `return` statements). */
function returnedMessages(body: ts.ConciseBody | undefined): Found {
  const found: Found = { strings: [], references: [] };
  if (!body) return found;
  if (!ts.isBlock(body)) return messagesOf(body, found);
  const visit = (node: ts.Node) => {
    if (ts.isReturnStatement(node)) messagesOf(node.expression, found);
    // Not into nested functions: their returns are theirs.
    if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return found;
}

const isMessageConstantName = (name: string) => /^[A-Z][A-Z0-9_]*$/.test(name) || /(Message|Messages)$/.test(name);

/** Every English message the server source can answer with, once each. */
export function serverMessages(): MessageSite[] {
  const sites = new Map<string, MessageSite>();
  /** Declarations by name, to follow a site that names a constant or calls a function. */
  const declarations = new Map<string, { found: Found; file: ts.SourceFile }[]>();
  const pending: { name: string; file: ts.SourceFile }[] = [];

  const add = (found: Found, file: ts.SourceFile, requireSentence = false) => {
    for (const string of found.strings) {
      if (requireSentence && !looksLikeSentence(string.template)) continue;
      if (!string.template.trim()) continue;
      const line = file.getLineAndCharacterOfPosition(string.node.getStart(file)).line + 1;
      if (!sites.has(string.template)) sites.set(string.template, { template: string.template, sample: string.sample, where: `${relative(SERVER_DIR, file.fileName)}:${line}` });
    }
    for (const name of found.references) pending.push({ name, file });
  };

  for (const path of sourceFiles(SOURCE_DIR)) {
    if (NOT_ANSWERS.some((part) => relative(SOURCE_DIR, path).startsWith(part))) continue;
    const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const declare = (name: string, found: Found) => {
      const list = declarations.get(name) ?? [];
      list.push({ found, file });
      declarations.set(name, list);
    };
    const visit = (node: ts.Node) => {
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'HttpError') {
        add(messagesOf(node.arguments?.[1]), file);
      } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'fieldError') {
        add(messagesOf(node.arguments[1]), file);
      } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'validationError') {
        add(messagesOf(node.arguments[0]), file, true);
      } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ZOD_CHECKS.has(node.expression.name.text)) {
        for (const argument of node.arguments) if (!ts.isObjectLiteralExpression(argument)) add(messagesOf(argument), file, true);
      } else if (ts.isPropertyAssignment(node) && ['message', 'decision_message'].includes(node.name.getText(file))) {
        add(messagesOf(node.initializer), file, true);
      } else if (ts.isPropertyAssignment(node) && node.name.getText(file) === 'error') {
        // zod 4's `{ error: 'message' }` or `{ error: (issue) => … ? 'message' : 'other' }`.
        const value = node.initializer;
        add(ts.isArrowFunction(value) || ts.isFunctionExpression(value) ? returnedMessages(value.body) : messagesOf(value), file, true);
      } else if (ts.isShorthandPropertyAssignment(node) && node.name.text === 'message') {
        pending.push({ name: 'message', file });
      }

      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
        const initializer = node.initializer;
        if (initializer && (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer))) {
          declare(node.name.text, returnedMessages(initializer.body));
        } else if (initializer) {
          const found = messagesOf(initializer);
          declare(node.name.text, found);
          // Message constants (a sentence, not a list of them) are messages even before a site
          // is found naming them.
          if (isMessageConstantName(node.name.text) && !ts.isArrayLiteralExpression(initializer)) add({ strings: found.strings, references: [] }, file, true);
        }
      } else if (ts.isFunctionDeclaration(node) && node.name) {
        declare(node.name.text, returnedMessages(node.body));
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }

  // Follow the names sites use to their declarations (a constant naming another, a function
  // returning a constant…), each name once.
  const followed = new Set<string>();
  while (pending.length > 0) {
    const { name } = pending.pop()!;
    if (followed.has(name)) continue;
    followed.add(name);
    for (const declaration of declarations.get(name) ?? []) add(declaration.found, declaration.file, true);
  }
  return [...sites.values()].sort((a, b) => a.where.localeCompare(b.where, 'en', { numeric: true }));
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  for (const site of serverMessages()) console.log(`${site.where}\t${site.template}`);
}
