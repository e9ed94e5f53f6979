import path from 'node:path'
import { fileURLToPath } from 'node:url'

// This file sits at server/src/kernel/paths.ts under tsx and at dist/server/kernel/paths.js once
// compiled: three levels up is the project root either way, whatever the current directory is.
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

export const paths = {
  env: path.join(projectRoot, '.env'),
  client: path.join(projectRoot, 'dist', 'client'),
  mail: path.join(projectRoot, 'storage', 'mail'),
}
