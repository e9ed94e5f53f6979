import type { Translation } from '../../../kernel/index.js'
import type { en } from './en.js'

// The passwordless layer's German messages: the type makes them as complete as en.ts.
export const de: Translation<typeof en> = {
  fields: {
    code: 'Code',
    email_code: 'Code',
  },
  passwordless: {
    sent: 'Schau in dein Postfach: Wenn sich diese Adresse hier anmelden kann, sind ein Link und ein Code unterwegs. Beide gelten 10 Minuten.',
    codeDigits: 'Der Code muss aus 6 Ziffern bestehen.',
    codeInvalid: 'Der Code ist falsch oder abgelaufen. Fordere einen neuen an, wenn es weiter nicht klappt.',
    requestExpired: 'Diese Anmeldeanfrage ist abgelaufen. Bitte fordere einen neuen Link an.',
    approved: 'Erledigt: Das Gerät, das gefragt hat, wird jetzt angemeldet. Du kannst diese Seite schließen.',
    confirmSent: 'Ein Code ist an deine E-Mail-Adresse unterwegs.',
  },
  passwordlessMail: {
    subject: 'Dein Anmeldelink',
    subjectSignUp: 'Registrierung abschließen',
    body: 'Jemand möchte sich mit dieser Adresse bei deinem Konto anmelden. Nutze die Schaltfläche unten auf dem Gerät, das gefragt hat, oder gib den Code auf der Seite ein, die gefragt hat. Beides gilt einmal, {{minutes}} Minuten lang.',
    bodySignUp: 'Jemand möchte sich mit dieser Adresse registrieren. Nutze die Schaltfläche unten auf dem Gerät, das gefragt hat, oder gib den Code auf der Seite ein, die gefragt hat, und das Konto wird angelegt. Beides gilt einmal, {{minutes}} Minuten lang.',
    code: 'Dein Code: {{code}}',
    ignore: 'Wenn du das nicht angefordert hast, ignoriere diese E-Mail: Ohne sie kann sich niemand anmelden.',
    action: 'Anmelden',
    actionSignUp: 'Registrieren',
    confirmSubject: 'Dein Bestätigungscode',
    confirmBody: 'Gib diesen Code dort ein, wo die App dich gebeten hat, zu bestätigen, dass du es bist. Er gilt einmal, {{minutes}} Minuten lang.',
    confirmIgnore: 'Wenn du das nicht angefordert hast, nutzt vielleicht jemand dein Konto: Melde dich auf der Sitzungsseite überall ab.',
  },
}
