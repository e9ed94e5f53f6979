// The CAPTCHA layer's German messages: typed by the English ones, so none is missing.
import type { Translation } from '../../../kernel/index.js'
import type { en } from './en.js'

export const de: Translation<typeof en> = {
  fields: {
    captcha: 'CAPTCHA',
  },
  captcha: {
    required: 'Bitte bestätige, dass du ein Mensch bist, und sende das Formular dann erneut.',
    failed: 'Die Prüfung ist nicht bestanden oder abgelaufen. Bitte versuche es noch einmal.',
    wrongSolution: 'Diese Lösung ist falsch oder ihre Aufgabe ist abgelaufen.',
    unavailable: 'Der CAPTCHA-Dienst ist gerade nicht erreichbar, daher kann nichts geprüft werden. Bitte versuche es in ein paar Minuten noch einmal.',
  },
}
