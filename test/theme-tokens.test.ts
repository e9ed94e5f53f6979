import { describe, expect, it } from 'vitest'
import { renderProject } from '../src/generate/index.js'
import { VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { countingRandom } from './helpers/random.js'

/** The one file of a generated app that holds colours; everything else names its tokens. */
const TOKENS = 'client/src/assets/tokens.css'

/**
 * Every foreground the client sets on a background, with the WCAG AA contrast it keeps in both
 * themes: 4.5:1 for text, 3:1 for the borders of form controls (the focus ring is the accent,
 * held to 4.5:1 as link text already).
 */
const PAIRS: readonly (readonly [foreground: string, background: string, minimum: number])[] = [
  ['--text', '--bg', 4.5],
  ['--text', '--card', 4.5],
  ['--text', '--accent-soft', 4.5],
  ['--muted', '--bg', 4.5],
  ['--muted', '--card', 4.5],
  ['--muted', '--accent-soft', 4.5],
  ['--accent', '--bg', 4.5],
  ['--accent', '--card', 4.5],
  ['--accent', '--accent-soft', 4.5],
  ['--danger', '--bg', 4.5],
  ['--danger', '--card', 4.5],
  ['--ok', '--bg', 4.5],
  ['--ok', '--card', 4.5],
  ['--on-accent', '--accent', 4.5],
  ['--on-danger', '--danger', 4.5],
  ['--control', '--bg', 3],
  ['--control', '--card', 3],
]

// CSS's named colours, transparent and currentColor left out: those carry no colour of their own.
const NAMED = new Set(
  `aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood
  cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray
  darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen
  darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue
  firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew
  hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan
  lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray
  lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue
  mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred
  midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
  palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple
  rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue
  slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white
  whitesmoke yellow yellowgreen`.split(/\s+/),
)

/** The CSS of a client file: a stylesheet whole, a component's <style> blocks and style attributes. */
function cssOf(path: string, text: string): string {
  if (path.endsWith('.css')) return text
  const blocks = [...text.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1])
  const attributes = [...text.matchAll(/\sstyle="([^"]*)"/g)].map((m) => m[1])
  return [...blocks, ...attributes].join('\n')
}

/** The colour literals in some CSS: hex, colour functions, and named colours in declared values. */
function colourLiterals(css: string): string[] {
  const code = css.replace(/\/\*[\s\S]*?\*\//g, '')
  const found = [...code.matchAll(/#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/gi)].map((m) => m[0])
  for (const [, value] of code.matchAll(/[\w-]\s*:\s*([^;{}]+)/g)) {
    const words = value!.replace(/--[\w-]+/g, '').match(/[a-z]+/gi) ?? []
    found.push(...words.filter((word) => NAMED.has(word.toLowerCase())))
  }
  return found
}

/** A theme's tokens: the custom properties of a block of tokens.css. */
function declarations(block: string): Map<string, string> {
  return new Map([...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]))
}

function block(css: string, selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`)
  if (start < 0) throw new Error(`${TOKENS} has no "${selector}" block`)
  return declarations(css.slice(start, css.indexOf('}', start)))
}

const renderedClient = (id: string) => renderProject(variantAnswers(id), 'x', { random: countingRandom() })

/** WCAG 2's relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const channel = parseInt(hex.slice(i, i + 2), 16) / 255
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}

function contrast(a: string, b: string): number {
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (lighter! + 0.05) / (darker! + 0.05)
}

describe.each(VARIANT_IDS)('the %s variant’s client', (id) => {
  it('carries no colour outside the token file', () => {
    const styled = [...renderedClient(id)].filter(([path]) => path.startsWith('client/') && /\.(vue|css)$/.test(path))
    expect(styled.map(([path]) => path)).toContain(TOKENS)
    const literals = styled
      .filter(([path]) => path !== TOKENS)
      .flatMap(([path, text]) => colourLiterals(cssOf(path, text.toString())).map((literal) => `${path}: ${literal}`))
    expect(literals).toEqual([])
  })
})

describe('the token file', () => {
  const css = () => renderedClient('sqlite').get(TOKENS)!.toString()

  it('gives the system’s dark and the chosen dark the same values', () => {
    const tokens = css()
    expect(block(tokens, ":root:not([data-theme='light'])")).toEqual(block(tokens, ":root[data-theme='dark']"))
  })

  it.each(['light', 'dark'] as const)('keeps every pair’s contrast in the %s theme', (theme) => {
    const tokens = css()
    const light = block(tokens, ':root')
    // The dark theme overrides what it changes; the rest (the QR code's white) stays.
    const values = theme === 'light' ? light : new Map([...light, ...block(tokens, ":root[data-theme='dark']")])
    const failing = PAIRS.map(([foreground, background, minimum]) => {
      const ratio = contrast(values.get(foreground)!, values.get(background)!)
      return { pair: `${foreground} on ${background}`, ratio: Math.round(ratio * 100) / 100, minimum }
    }).filter(({ ratio, minimum }) => !(ratio >= minimum))
    expect(failing).toEqual([])
  })

  it('sets color-scheme in each theme, for form controls and scrollbars', () => {
    const tokens = css()
    expect(tokens).toMatch(/:root \{\s*color-scheme: light;/)
    expect(tokens).toMatch(/:root:not\(\[data-theme='light'\]\) \{\s*color-scheme: dark;/)
    expect(tokens).toMatch(/:root\[data-theme='dark'\] \{\s*color-scheme: dark;/)
  })
})

it('the check finds each kind of colour literal, and no other word', () => {
  const css = '.a { color: #fff; border: 1px solid rgb(0 0 0 / .2); background: hsl(0 0% 50%) } .b { outline-color: Red; white-space: nowrap; color: var(--white-ish) } /* white */'
  expect(colourLiterals(css)).toEqual(['#fff', 'rgb(', 'hsl(', 'Red'])
  const component = '<template><p style="color: navy">x</p></template><style>.c { fill: teal }</style>'
  expect(colourLiterals(cssOf('x.vue', component))).toEqual(['teal', 'navy'])
})
