#!/usr/bin/env node
// Bundles the CLI into dist/cli/main.js (prompts and execa split into chunks loaded on demand),
// as create-vue does: one file to load instead of dozens of modules makes `npx` start faster.
// Type-checking is tsc's job (`npm run typecheck`); esbuild only strips the types.
import { rmSync } from 'node:fs'
import { build } from 'esbuild'

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true })
await build({
  entryPoints: ['src/cli/main.ts'],
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  // Bundled CommonJS packages (prompts, cross-spawn) call require() for Node's built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
})
