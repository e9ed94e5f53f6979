import type { Translation } from '../../../kernel/index.js'
import type { en } from './en.js'

// The teams layer's German messages: the type makes them as complete as en.ts.
export const de: Translation<typeof en> = {
  teams: {
    invitationRole: 'Die Rolle muss admin oder member sein.',
    memberRole: 'Die Rolle muss eine von {{roles}} sein.',
    personalHasNoMembers: 'Ein persönliches Team hat keine weiteren Mitglieder: Erstelle ein Team, um Leute einzuladen.',
    invitationSent: 'Falls diese Adresse dem Team beitreten kann, ist eine Einladung an sie unterwegs.',
    onlyOwner: 'Der einzige Eigentümer eines Teams mit weiteren Mitgliedern kann nicht gelöscht werden: Übertrage das Team zuerst an ein anderes Mitglied.',
    lastOwner: 'Ein Team muss mindestens einen Eigentümer behalten: Mach zuerst ein anderes Mitglied zum Eigentümer.',
    chooseAnother: 'Wähle ein anderes Mitglied des Teams.',
    invitationInvalid: 'Diese Einladung ist ungültig oder abgelaufen.',
    personalUndeletable: 'Ein persönliches Team kann nicht gelöscht werden.',
  },
  teamMail: {
    subject: 'Du bist eingeladen, einem Team beizutreten',
    bodyAdmin: 'Eine Einladung, einem Team auf {{site}} als Admin beizutreten, wartet auf dich. Der Link läuft in {{days}} Tagen ab.',
    bodyMember: 'Eine Einladung, einem Team auf {{site}} als Mitglied beizutreten, wartet auf dich. Der Link läuft in {{days}} Tagen ab.',
    accept: 'Folge dem Link und melde dich mit dieser E-Mail-Adresse an oder lege damit ein Konto an: Die Seite zeigt dann, um welches Team es geht und wer dich eingeladen hat, und du kannst die Einladung annehmen.',
    ignore: 'Falls du diese Einladung nicht erwartet hast, ignoriere diese Nachricht: Es ändert sich nichts.',
    action: 'Einladung annehmen',
  },
}
