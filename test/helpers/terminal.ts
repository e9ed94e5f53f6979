import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { BIN } from './cli.js'

/**
 * Drives the CLI in a real pseudo-terminal (tmux), as a person at a keyboard would: the only way
 * to exercise the prompts, arrow keys and Ctrl-C for real.
 */
export class Terminal {
  private readonly socket = `cca-test-${process.pid}-${Math.random().toString(36).slice(2)}`
  private readonly exitFile: string

  constructor(cwd: string, args: string[]) {
    this.exitFile = join(cwd, '.exit-code')
    const command = `env -u CI -u npm_config_user_agent ${process.execPath} ${BIN} ${args.join(' ')}; echo $? > ${this.exitFile}; sleep 30`
    this.tmux('new-session', '-d', '-x', '160', '-y', '50', '-c', cwd, command)
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' })
  }

  screen(): string {
    return this.tmux('capture-pane', '-p', '-J')
  }

  /** Waits until the screen shows `text` (a prompt, a message). */
  async waitFor(text: string, timeoutMs = 10000): Promise<string> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const screen = this.screen()
      if (screen.includes(text)) return screen
      if (Date.now() > deadline) throw new Error(`"${text}" did not appear; the screen shows:\n${screen}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  /** tmux key names (`Enter`, `Down`, `BSpace`, `C-c`) or literal text with `{ literal: true }`. */
  keys(keys: string[], options: { literal?: boolean } = {}): void {
    this.tmux('send-keys', ...(options.literal ? ['-l'] : []), ...keys)
  }

  async answer(prompt: string, keys: string[], options: { literal?: boolean } = {}): Promise<void> {
    await this.waitFor(prompt)
    this.keys(keys, options)
  }

  async exitCode(timeoutMs = 15000): Promise<number> {
    const deadline = Date.now() + timeoutMs
    while (!existsSync(this.exitFile) || !readFileSync(this.exitFile, 'utf8').trim()) {
      if (Date.now() > deadline) throw new Error(`the CLI did not exit; the screen shows:\n${this.screen()}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return Number(readFileSync(this.exitFile, 'utf8').trim())
  }

  close(): void {
    try {
      this.tmux('kill-server')
    } catch {
      // Already gone.
    }
  }
}
