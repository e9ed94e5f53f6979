// The SSO layer's English messages, merged with base's (kernel/i18n/translate.ts).
export const en = {
  sso: {
    domainInvalid: 'Enter a domain name such as example.com.',
    domainTaken: 'Another team has verified this domain.',
    domainClaimed: 'This team has added this domain already.',
    domainUnknown: 'This team has not added this domain.',
    domainUnproved: 'The TXT record was not found yet: publish it, wait for DNS to update, and try again.',
    personalTeam: 'A personal team has no single sign-on: create a team for your organisation.',
  },
}
