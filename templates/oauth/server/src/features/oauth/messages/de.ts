import type { Translation } from '../../../kernel/index.js'
import type { en } from './en.js'

// The oauth layer's German messages: the type makes them as complete as en.ts.
export const de: Translation<typeof en> = {
  oauth: {
    remember: 'Das Feld „Angemeldet bleiben“ muss 1 oder 0 sein.',
    lastWayIn: 'Dies ist die einzige Möglichkeit, dich bei deinem Konto anzumelden: Lege ein Passwort fest (mit „Passwort vergessen?“) oder füge zuerst eine weitere Möglichkeit hinzu.',
    redirect: 'Die Weiterleitung muss ein Pfad auf dieser Website sein, etwa /dashboard.',
  },
  oauthNotices: {
    linked: {
      subject: 'Ein Anmeldeanbieter wurde mit deinem Konto verknüpft',
      summary: 'Ein Anmeldeanbieter wurde mit deinem Konto verknüpft: Eine Anmeldung dort meldet dich jetzt auch hier an.',
    },
  },
}
