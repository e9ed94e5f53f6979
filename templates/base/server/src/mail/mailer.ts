import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import nodemailer, { type Transporter } from 'nodemailer'
import type { Logger } from '../logger.js'

export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
}

export interface Mailer {
  readonly transport: 'smtp' | 'file'
  send(message: MailMessage): Promise<void>
  close(): void
}

/**
 * SMTP when SMTP_URL is set. Otherwise each message is written to `mailDir` as an .eml file and
 * its text to the log, so links can be followed in development without a mail server.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; mailDir: string; logger: Logger }): Mailer {
  const { smtpUrl, from, mailDir, logger } = options
  if (smtpUrl) {
    const transporter: Transporter = nodemailer.createTransport(smtpUrl)
    return {
      transport: 'smtp',
      async send(message) {
        await transporter.sendMail({ from, ...message })
      },
      close: () => transporter.close(),
    }
  }
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    transport: 'file',
    async send(message) {
      const info = await transporter.sendMail({ from, ...message })
      await fs.mkdir(mailDir, { recursive: true })
      const stamp = new Date().toISOString().replace(/[:.]/g, '-')
      const file = path.join(mailDir, `${stamp}-${randomBytes(3).toString('hex')}.eml`)
      await fs.writeFile(file, info.message as Buffer)
      logger.info(`Mail to ${message.to} — ${message.subject} (saved to ${file})\n${message.text}`)
    },
    close: () => transporter.close(),
  }
}
