import ts from 'typescript'

/**
 * Where a file names a feature layer in code: the layer's name as an identifier, or as a segment
 * of a path in a string (an import, `'/api/teams'`, `'server/src/features/two-factor/index.ts'`),
 * or as the namespace of a key (`'teams.title'`). Comments and prose are not read: a comment,
 * Markdown outside code, a template's text, a string with a space in it (`'Hello Olivia,'`), a
 * bare word (`state.text = 'hello'`), a key inside another namespace (`'mail.hello'`) and the
 * name of an object's or a type's own property (`hello: 'Hello {{name}},'`) are not the layer.
 *
 * A name matches by its words, whatever the case and separators: `two-factor` is in
 * `twoFactorSecret`, `TwoFactorPage.vue`, `TWO_FACTOR` and `/api/two-factor/…`, not in `factor`.
 */
export function layerMentions(text: string, path: string, layer: string): string[] {
  const found: string[] = []
  const wanted = layer.toLowerCase().split('-')
  const check = (kind: 'identifier' | 'string', token: string) => {
    if (kind === 'identifier' ? hasWords(wordsOf(token), wanted) : stringNames(token, wanted)) found.push(`${kind} ${JSON.stringify(token)}`)
  }
  scanFile(text, path.replace(/\.ejs$/, ''), path.endsWith('.ejs'), check)
  return found
}

type Check = (kind: 'identifier' | 'string', token: string) => void

/** `twoFactorSecret` → two factor secret; `TWO_FACTOR` → two factor; `hello.test.ts` → hello test ts. */
function wordsOf(token: string): string[] {
  return token
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase())
}

function hasWords(words: string[], wanted: string[]): boolean {
  return words.some((_, start) => wanted.every((word, offset) => words[start + offset] === word))
}

/** A path names the layer in one of its segments, a dotted key in its first part; prose and bare words do not. */
function stringNames(value: string, wanted: string[]): boolean {
  if (/\s/.test(value)) return false
  if (value.includes('/')) return value.split('/').some((segment) => hasWords(wordsOf(segment), wanted))
  if (value.includes('.')) return hasWords(wordsOf(value.split('.')[0]!), wanted)
  return false
}

function scanFile(text: string, kindPath: string, ejs: boolean, check: Check): void {
  if (ejs) {
    // EJS: `<% code %>`, `<%= %>`, `<%- %>` are code; `<%# %>` a comment; the rest the file's own kind.
    const outside: string[] = []
    let last = 0
    for (const tag of text.matchAll(/<%([_=\-#]?)([\s\S]*?)[_-]?%>/g)) {
      outside.push(text.slice(last, tag.index))
      last = tag.index + tag[0].length
      if (tag[1] !== '#') scanCode(tag[2]!, check)
    }
    outside.push(text.slice(last))
    text = outside.join('')
  }
  const extension = /\.([A-Za-z0-9]+)$/.exec(kindPath)?.[1]?.toLowerCase()
  if (['ts', 'tsx', 'js', 'mjs', 'cjs', 'mts', 'cts', 'json'].includes(extension ?? '')) scanCode(text, check)
  else if (extension === 'vue') scanVue(text, check)
  else if (extension === 'html') scanMarkup(text, check)
  else if (extension === 'css') scanWords(text.replace(/\/\*[\s\S]*?\*\//g, ' '), check)
  else if (extension === 'md') for (const code of text.matchAll(/```[\s\S]*?```|`[^`\n]+`/g)) scanWords(code[0].replace(/`/g, ' '), check)
  // Configuration (YAML, .env, nginx, Dockerfile, .gitignore): `#` starts a comment.
  else scanWords(text.replace(/(^|\s)#.*$/gm, '$1'), check)
}

/** Plain text that is all code: a token with a slash is a path, any other an identifier. */
function scanWords(text: string, check: Check): void {
  for (const [token] of text.matchAll(/[\w$@./:-]+/g)) {
    if (token.includes('/')) check('string', token)
    else check('identifier', token)
  }
}

/** An expression, or a JavaScript, TypeScript or JSON file, token by token (TypeScript's own scanner). */
function scanCode(code: string, check: Check): void {
  const K = ts.SyntaxKind
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, code)
  /** After these a `/` divides; elsewhere it starts a regular expression. */
  const endsExpression = new Set([K.Identifier, K.PrivateIdentifier, K.StringLiteral, K.NumericLiteral, K.BigIntLiteral, K.CloseParenToken, K.CloseBracketToken, K.CloseBraceToken, K.NoSubstitutionTemplateLiteral, K.TemplateTail, K.RegularExpressionLiteral, K.ThisKeyword, K.SuperKeyword, K.TrueKeyword, K.FalseKeyword, K.NullKeyword, K.PlusPlusToken, K.MinusMinusToken])
  /** The brace depth at which each open template literal's `${` began. */
  const templates: number[] = []
  let depth = 0
  let previous: ts.SyntaxKind | undefined
  for (let token = scanner.scan(); token !== K.EndOfFileToken; token = scanner.scan()) {
    if ((token === K.SlashToken || token === K.SlashEqualsToken) && (previous === undefined || !endsExpression.has(previous))) token = scanner.reScanSlashToken()
    if (token === K.CloseBraceToken && templates.length > 0 && templates.at(-1) === depth) {
      token = scanner.reScanTemplateToken(false)
      if (token === K.TemplateTail) templates.pop()
    } else if (token === K.OpenBraceToken) depth++
    else if (token === K.CloseBraceToken) depth--
    if (token === K.TemplateHead) templates.push(depth)

    if (token === K.Identifier || token === K.PrivateIdentifier) {
      const keyPosition = previous === undefined || previous === K.OpenBraceToken || previous === K.CommaToken || previous === K.SemicolonToken || scanner.hasPrecedingLineBreak()
      const ownProperty =
        keyPosition &&
        scanner.lookAhead(() => {
          let next = scanner.scan()
          if (next === K.QuestionToken) next = scanner.scan()
          return next === K.ColonToken
        })
      if (!ownProperty) check('identifier', scanner.getTokenText())
    } else if ([K.StringLiteral, K.NoSubstitutionTemplateLiteral, K.TemplateHead, K.TemplateMiddle, K.TemplateTail].includes(token)) {
      check('string', scanner.getTokenValue())
    } else if (token === K.RegularExpressionLiteral) {
      check('string', scanner.getTokenText().replace(/^\/|\/[a-z]*$/g, '').replace(/\\\//g, '/'))
    }
    previous = token
  }
}

/** A single-file component: its scripts are code, its template markup, its styles CSS. */
function scanVue(text: string, check: Check): void {
  for (const block of text.matchAll(/<(script|template|style)\b[^>]*>([\s\S]*)<\/\1>/g)) {
    if (block[1] === 'script') scanCode(block[2]!, check)
    else if (block[1] === 'template') scanMarkup(block[2]!, check)
    else scanWords(block[2]!.replace(/\/\*[\s\S]*?\*\//g, ' '), check)
  }
}

/** HTML or a Vue template: tag names, bound attributes and `{{ }}` are code; static attribute values strings; text prose. */
function scanMarkup(text: string, check: Check): void {
  const markup = text.replace(/<!--[\s\S]*?-->/g, ' ')
  for (const interpolation of markup.matchAll(/\{\{([\s\S]*?)\}\}/g)) scanCode(interpolation[1]!, check)
  for (const tag of markup.matchAll(/<\/?([A-Za-z][\w-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>/g)) {
    check('identifier', tag[1]!)
    for (const attribute of tag[2]!.matchAll(/([:@#]?[\w:.@#[\]-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'))?/g)) {
      const [, name, double, single] = attribute
      const value = double ?? single
      if (value === undefined) continue
      if (/^[:@#]|^v-/.test(name!)) scanCode(value, check)
      else check('string', value)
    }
  }
}
