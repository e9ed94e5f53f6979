// The team keys' messages, merged into the API-key layer's catalogues (index.ts).
export const teamKeyMessages = {
  en: {
    teamApiKeys: {
      scopes: "A team's key has the read and write scopes only.",
      role: 'The role must be owner, admin or member.',
      roleAbove: 'A key cannot have a role above your own in the team.',
    },
  },
  de: {
    teamApiKeys: {
      scopes: 'Ein Team-Schlüssel hat nur die Berechtigungen read und write.',
      role: 'Die Rolle muss owner, admin oder member sein.',
      roleAbove: 'Ein Schlüssel kann keine höhere Rolle haben als deine eigene im Team.',
    },
  },
}
