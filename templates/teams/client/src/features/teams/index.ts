import type { ClientFeature } from '../types'
import en from '@/features/teams/locales/en.json'
import TeamSwitcher from '@/features/teams/components/TeamSwitcher.vue'
import AcceptInvitationPage from '@/features/teams/pages/AcceptInvitationPage.vue'
import CreateTeamPage from '@/features/teams/pages/CreateTeamPage.vue'
import TeamPage from '@/features/teams/pages/TeamPage.vue'
import './teams.css'

export const feature: ClientFeature = {
  routes: [
    { path: '/teams/new', name: 'team-new', component: CreateTeamPage, meta: { auth: true, title: 'teams.titles.create' } },
    { path: '/teams/:id', name: 'team', component: TeamPage, meta: { auth: true, title: 'teams.titles.team' } },
    // Open to everyone: a signed-out visitor is sent through login or registration and back.
    { path: '/invitations/accept', name: 'invitation-accept', component: AcceptInvitationPage, meta: { title: 'teams.titles.join' } },
  ],
  nav: [TeamSwitcher],
  messages: { en, de: () => import('@/features/teams/locales/de.json') },
}
