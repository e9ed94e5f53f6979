import type { Translation } from '../../../kernel/index.js'
import type { en } from './en.js'

// The SSO layer's German messages: complete, as Translation<typeof en> demands.
export const de: Translation<typeof en> = {
  sso: {
    domainInvalid: 'Gib einen Domainnamen wie example.com ein.',
    domainTaken: 'Ein anderes Team hat diese Domain bereits bestätigt.',
    domainClaimed: 'Dieses Team hat diese Domain bereits hinzugefügt.',
    domainUnknown: 'Dieses Team hat diese Domain nicht hinzugefügt.',
    domainUnproved: 'Der TXT-Eintrag wurde noch nicht gefunden: Veröffentliche ihn, warte, bis das DNS aktualisiert ist, und versuche es erneut.',
    typeUnsupported: 'Der Verbindungstyp muss saml sein.',
    metadataInvalid: 'Füge die SAML-Metadaten des IdP ein: ein EntityDescriptor mit einem IDPSSODescriptor, eine Anmelde-URL für das HTTP-Redirect-Binding (https) und ein Signaturzertifikat.',
    defaultRole: 'Die Standardrolle muss member oder admin sein.',
    noConnection: 'Für diese Adresse ist kein Single Sign-on eingerichtet: Melde dich stattdessen mit deinem Passwort an.',
    required: 'Deine Organisation meldet dich über ihr Single Sign-on an: Nutze „Weiter mit SSO“ auf der Anmeldeseite.',
    personalTeam: 'Ein persönliches Team hat kein Single Sign-on: Lege ein Team für deine Organisation an.',
  },
}
