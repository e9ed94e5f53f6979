import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface Mail {
  to: string[]
  /** Headers and body, with quoted-printable soft breaks and escapes undone. */
  raw: string
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/** A real SMTP server on a free port that keeps every message the app sends. */
export async function startMailbox() {
  const mails: Mail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** The first link to `page` mailed to `to`, waiting for the mail to arrive. */
    async link(to: string, page: 'verify-email' | 'reset-password', timeoutMs = 15_000): Promise<string> {
      const pattern = new RegExp(`https?://[^\\s"<>]+/${page}\\?[^\\s"<>]+`)
      const until = Date.now() + timeoutMs
      while (Date.now() < until) {
        for (const mail of mails) {
          const found = mail.to.includes(to.toLowerCase()) && mail.raw.match(pattern)
          if (found) return found[0].replace(/&amp;/g, '&')
        }
        await new Promise((r) => setTimeout(r, 100))
      }
      throw new Error(`No ${page} mail reached ${to} within ${timeoutMs} ms (${mails.length} mail(s) received).`)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type Mailbox = Awaited<ReturnType<typeof startMailbox>>
