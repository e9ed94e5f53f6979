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
    typeUnsupported: 'Der Verbindungstyp muss saml oder oidc sein.',
    metadataInvalid: 'Füge die SAML-Metadaten des IdP ein: ein EntityDescriptor mit einem IDPSSODescriptor, eine Anmelde-URL für das HTTP-Redirect-Binding (https) und ein Signaturzertifikat.',
    issuerInvalid: 'Gib die Issuer-URL deines OpenID-Anbieters ein, beginnend mit https://.',
    issuerUnreachable: 'Unter diesem Issuer hat kein OpenID-Anbieter mit diesem Client geantwortet: Prüfe die Issuer-URL (ihre /.well-known/openid-configuration muss diesen Issuer nennen).',
    clientIdRequired: 'Gib die Client-ID ein, die dein OpenID-Anbieter der App gegeben hat.',
    clientSecretRequired: 'Gib das Client-Secret ein, das dein OpenID-Anbieter der App gegeben hat.',
    defaultRole: 'Die Standardrolle muss member oder admin sein.',
    noConnection: 'Für diese Adresse ist kein Single Sign-on eingerichtet: Melde dich stattdessen mit deinem Passwort an.',
    required: 'Deine Organisation meldet dich über ihr Single Sign-on an: Nutze „Weiter mit SSO“ auf der Anmeldeseite.',
    personalTeam: 'Ein persönliches Team hat kein Single Sign-on: Lege ein Team für deine Organisation an.',
  },
}
