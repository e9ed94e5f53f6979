import type { ClientFeature } from '../types'
import en from '@/features/teams/locales/en.json'
import TeamSwitcher from '@/features/teams/components/TeamSwitcher.vue'
import './teams.css'
import { withPageTexts } from '@/lib/page-texts'

export const feature: ClientFeature = {
  routes: [
    { path: '/teams/new', name: 'team-new', component: withPageTexts(() => import('@/features/teams/pages/CreateTeamPage.vue')), meta: { auth: true, title: 'teams.titles.create' } },
    { path: '/teams/:id', name: 'team', component: withPageTexts(() => import('@/features/teams/pages/TeamPage.vue')), meta: { auth: true, title: 'teams.titles.team' } },
    // Open to everyone: a signed-out visitor is sent through login or registration and back.
    { path: '/invitations/accept', name: 'invitation-accept', component: withPageTexts(() => import('@/features/teams/pages/AcceptInvitationPage.vue')), meta: { title: 'teams.titles.join' } },
  ],
  nav: [TeamSwitcher],
  messages: { en, de: () => import('@/features/teams/locales/de.json') },
}
