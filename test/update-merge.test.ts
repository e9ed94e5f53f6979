import { describe, expect, it } from 'vitest'
import { sha256 } from '../src/generate/record.js'
import { mergePackageJson } from '../src/update/merge-package-json.js'
import { mergeText } from '../src/update/merge-text.js'
import { planUpdate } from '../src/update/plan.js'

const LABEL = 'create-cookie-auth-app@9.9.9'

describe('mergeText', () => {
  const base = 'one\ntwo\nthree\nfour\nfive\n'

  it('takes what each side changed when they touch different lines', () => {
    const merged = mergeText('ONE\ntwo\nthree\nfour\nfive\n', base, 'one\ntwo\nthree\nfour\nFIVE\n', LABEL)
    expect(merged).toEqual({ text: 'ONE\ntwo\nthree\nfour\nFIVE\n', conflict: false })
  })

  it('takes a change both sides made alike once', () => {
    expect(mergeText('one\nTWO\nthree\nfour\nfive\n', base, 'one\nTWO\nthree\nfour\nfive\n', LABEL)).toEqual({ text: 'one\nTWO\nthree\nfour\nfive\n', conflict: false })
  })

  it("marks a clash as git merge-file does, yours first, and keeps the rest", () => {
    const merged = mergeText('ONE\ntwo\nthree\nfour\nmine\n', base, 'ONE\ntwo\nthree\nfour\ntheirs\n', LABEL)
    expect(merged.conflict).toBe(true)
    expect(merged.text).toBe(`ONE\ntwo\nthree\nfour\n<<<<<<< yours\nmine\n=======\ntheirs\n>>>>>>> ${LABEL}\n`)
  })

  it('closes a side without a final newline before the next marker', () => {
    const merged = mergeText('a\nmine', 'a\nbase', 'a\ntheirs', LABEL)
    expect(merged.text).toBe(`a\n<<<<<<< yours\nmine\n=======\ntheirs\n>>>>>>> ${LABEL}\n`)
  })

  it('keeps a file without a final newline as it is where nothing clashes', () => {
    expect(mergeText('A\nb\nc', 'a\nb\nc', 'a\nb\nC', LABEL)).toEqual({ text: 'A\nb\nC', conflict: false })
  })
})

describe('mergePackageJson', () => {
  const json = (value: object, indent = 2) => `${JSON.stringify(value, null, indent)}\n`
  const base = { name: 'app', scripts: { dev: 'vite', test: 'vitest' }, dependencies: { a: '1.0.0', b: '1.0.0' }, trustedDependencies: ['a'] }

  it("applies base → theirs where yours is as base had it, and keeps your own keys", () => {
    const yours = { ...base, scripts: { ...base.scripts, lint: 'eslint .' }, dependencies: { ...base.dependencies, mine: '2.0.0' }, private: true }
    const theirs = { ...base, scripts: { dev: 'vite --host', test: 'vitest' }, dependencies: { b: '1.1.0', c: '1.0.0' }, trustedDependencies: ['a', 'c'] }
    const merged = mergePackageJson(json(yours), json(base), json(theirs))!
    expect(merged.clashes).toEqual([])
    expect(merged.keptVersions).toEqual([])
    expect(JSON.parse(merged.text)).toEqual({
      name: 'app',
      scripts: { dev: 'vite --host', test: 'vitest', lint: 'eslint .' },
      dependencies: { b: '1.1.0', c: '1.0.0', mine: '2.0.0' },
      trustedDependencies: ['a', 'c'],
      private: true,
    })
    // Dependencies stay in order by name, as npm keeps them.
    expect(Object.keys(JSON.parse(merged.text).dependencies)).toEqual(['b', 'c', 'mine'])
  })

  it('keeps a version you changed that theirs changes too, and says so without calling it a conflict', () => {
    const merged = mergePackageJson(json({ ...base, dependencies: { a: '1.5.0', b: '1.0.0' } }), json(base), json({ ...base, dependencies: { a: '1.2.0', b: '1.0.0' } }))!
    expect(JSON.parse(merged.text).dependencies.a).toBe('1.5.0')
    expect(merged.keptVersions).toEqual(['dependencies.a'])
    expect(merged.clashes).toEqual([])
  })

  it('keeps your value of any other key both changed, and reports it as a clash', () => {
    const merged = mergePackageJson(json({ ...base, scripts: { ...base.scripts, dev: 'mine' } }), json(base), json({ ...base, scripts: { ...base.scripts, dev: 'theirs' } }))!
    expect(JSON.parse(merged.text).scripts.dev).toBe('mine')
    expect(merged.clashes).toEqual(['scripts.dev'])
  })

  it('keeps your indentation and final newline', () => {
    const merged = mergePackageJson(JSON.stringify(base, null, 4), json(base), json({ ...base, name: 'renamed' }))!
    expect(merged.text).toBe(JSON.stringify({ ...base, name: 'renamed' }, null, 4))
  })

  it('gives up on a package.json that is not JSON, for the text merge to take it', () => {
    expect(mergePackageJson('{ "name": <<<<<<< yours', json(base), json(base))).toBeUndefined()
  })
})

describe('planUpdate', () => {
  const files = (entries: Record<string, string | Buffer>) => new Map(Object.entries(entries).map(([path, value]) => [path, Buffer.from(value)]))
  const binary = (text: string) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]), Buffer.from(text)])

  function plan(app: Record<string, string | Buffer>, base: Record<string, string | Buffer>, target: Record<string, string | Buffer>) {
    const onDisk = files(app)
    const read: string[] = []
    const changes = planUpdate({
      read: (path) => (read.push(path), onDisk.get(path)),
      recorded: Object.fromEntries([...files(base)].map(([path, contents]) => [path, sha256(contents)])),
      base: files(base),
      target: files(target),
      label: LABEL,
    })
    return { changes, read }
  }

  it("never looks at a file nobody generated, so the owner's files are never touched", () => {
    const { changes, read } = plan({ 'a.ts': 'a\n', 'mine.ts': 'mine\n', '.env': 'SECRET=1\n' }, { 'a.ts': 'a\n', '.env': 'X=1\n' }, { 'a.ts': 'b\n', '.env': 'X=2\n' })
    expect(read).toEqual(['a.ts'])
    expect(changes).toEqual([{ path: 'a.ts', action: 'updated', contents: Buffer.from('b\n') }])
  })

  it('replaces a binary file left as generated, and keeps an edited one as a conflict', () => {
    const target = { 'logo.png': binary('new') }
    expect(plan({ 'logo.png': binary('old') }, { 'logo.png': binary('old') }, target).changes).toEqual([{ path: 'logo.png', action: 'updated', contents: binary('new') }])
    const edited = plan({ 'logo.png': binary('mine') }, { 'logo.png': binary('old') }, target).changes
    expect(edited).toEqual([{ path: 'logo.png', action: 'conflict', note: `binary, edited here and changed by ${LABEL}: yours kept` }])
  })

  it('merges a file the owner made where the target now makes one from an empty base', () => {
    const { changes } = plan({ 'new.ts': 'mine\n' }, {}, { 'new.ts': 'theirs\n' })
    expect(changes).toEqual([{ path: 'new.ts', action: 'conflict', contents: Buffer.from(`<<<<<<< yours\nmine\n=======\ntheirs\n>>>>>>> ${LABEL}\n`) }])
    expect(plan({ 'new.ts': 'same\n' }, {}, { 'new.ts': 'same\n' }).changes).toEqual([])
  })

  it('keeps an edited file the target removes, as a conflict, and deletes an unedited one', () => {
    expect(plan({ 'gone.ts': 'x\n' }, { 'gone.ts': 'x\n' }, {}).changes).toEqual([{ path: 'gone.ts', action: 'deleted' }])
    expect(plan({ 'gone.ts': 'edited\n' }, { 'gone.ts': 'x\n' }, {}).changes).toEqual([
      { path: 'gone.ts', action: 'conflict', note: `edited here, removed by ${LABEL}: yours kept` },
    ])
  })

  it('writes back a file the owner deleted only when the target changes it, as a conflict', () => {
    expect(plan({}, { 'old.ts': 'x\n' }, { 'old.ts': 'x\n' }).changes).toEqual([])
    expect(plan({}, { 'old.ts': 'x\n' }, { 'old.ts': 'y\n' }).changes).toEqual([
      { path: 'old.ts', action: 'conflict', contents: Buffer.from('y\n'), note: `deleted here, changed by ${LABEL}: its new version written` },
    ])
  })
  it('carries the edits of a file the target moved to its new path, as git does with a rename', () => {
    const old = 'import { a } from "./a.js"\nline 2\nline 3\nline 4\nline 5\n'
    const moved = 'import { a } from "../kernel/a.js"\nline 2\nline 3\nline 4\nline 5\n'
    const { changes } = plan({ 'src/x.ts': `${old}// mine\n` }, { 'src/x.ts': old }, { 'src/kernel/x.ts': moved })
    expect(changes).toEqual([
      { path: 'src/x.ts', action: 'deleted', note: `moved to src/kernel/x.ts by ${LABEL}: your edits carried there` },
      { path: 'src/kernel/x.ts', action: 'merged', contents: Buffer.from(`${moved}// mine\n`), note: 'from src/x.ts' },
    ])
    // Unedited, it simply goes and the new file comes; a new file unlike the old one is no move.
    expect(plan({ 'src/x.ts': old }, { 'src/x.ts': old }, { 'src/kernel/x.ts': moved }).changes.map((change) => change.action)).toEqual(['created', 'deleted'])
    expect(plan({ 'src/x.ts': `${old}// mine\n` }, { 'src/x.ts': old }, { 'src/y.ts': 'other\n' }).changes.map((change) => change.action)).toEqual(['conflict', 'created'])
  })
})
