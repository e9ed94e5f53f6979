// Bundles the CLI into dist/cli/main.js (prompts, execa and update split into chunks loaded on demand),
// as create-vue does: one file to load instead of dozens of modules makes `npx` start faster.
// The templates go into one file beside it, dist/templates.pack, with every .ejs compiled ahead:
// the bundle's default store reads that pack instead of walking templates/ (src/generate/templates).
// The feature layers' rows of the options table (templates/<layer>/layer.ts) are bundled as code: a
// module importing each one found now takes src/layer-rows.ts's place, which imports them from the folder.
// Type-checking is tsc's job (`npm run typecheck`); esbuild only strips the types.
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { type Plugin, build } from 'esbuild'
import { TEMPLATES_DIR } from '../src/generate/templates/folder.js'
import { writeTemplatePack } from '../src/generate/templates/pack-writer.js'
import { LAYER_ROW_FILE, layersWithRows } from '../src/layer-files.js'

const dist = new URL('../dist/', import.meta.url)

/** default-store.ts → default-store.bundle.ts: the folder store (and EJS with it) stays out of the bundle. */
const packedTemplates: Plugin = {
  name: 'packed-templates',
  setup(esbuild) {
    esbuild.onResolve({ filter: /\/templates\/default-store\.js$/ }, (args) => ({
      path: join(args.resolveDir, 'templates', 'default-store.bundle.ts'),
    }))
  },
}

/** src/layer-rows.ts → static imports of every templates/<layer>/layer.ts, so the rows are in dist/cli/. */
const bundledLayerRows: Plugin = {
  name: 'bundled-layer-rows',
  setup(esbuild) {
    esbuild.onResolve({ filter: /\/layer-rows\.js$/ }, (args) => ({ path: join(args.resolveDir, 'layer-rows.js'), namespace: 'layer-rows' }))
    esbuild.onLoad({ filter: /.*/, namespace: 'layer-rows' }, () => {
      const names = layersWithRows(TEMPLATES_DIR)
      return {
        contents: [
          ...names.map((name, index) => `import * as layer${index} from ${JSON.stringify(join(TEMPLATES_DIR, name, LAYER_ROW_FILE))}`),
          `export const LAYER_MODULES = [${names.map((name, index) => `{ name: ${JSON.stringify(name)}, exports: layer${index} }`).join(', ')}]`,
        ].join('\n'),
        loader: 'js',
        resolveDir: TEMPLATES_DIR,
      }
    })
  },
}

rmSync(dist, { recursive: true, force: true })
mkdirSync(dist)
writeTemplatePack(TEMPLATES_DIR, new URL('templates.pack', dist))
await build({
  entryPoints: ['src/cli/main.ts'],
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  entryNames: '[name]',
  // Beside main.js, not in a subfolder: a module shared by main and a chunk lands in a chunk of its
  // own, and finds the pack (default-store.bundle.ts) and package.json (generate/record.ts)
  // relative to whichever module holds it.
  chunkNames: '[name]-[hash]',
  plugins: [packedTemplates, bundledLayerRows],
  // Bundled CommonJS packages (prompts, cross-spawn) call require() for Node's built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
})
