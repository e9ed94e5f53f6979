/**
 * Where the generator's templates come from, by path relative to `templates/`
 * (`base/server/src/app.ts`, `versions.json`): the folder itself when running from source
 * (tests, scripts, template work), one pack file in the published CLI (`pack.ts`).
 */
export interface TemplateStore {
  /** Every file under a layer's folder, relative to it. */
  list(layer: string): string[]
  has(path: string): boolean
  read(path: string): Buffer
  /** An `.ejs` template rendered with `context` as its locals. */
  render(path: string, context: object): string
}
