import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { errorMessage } from '@/lib/http'
import { firstError, useVisit } from '@/plugins/visit'
import { useResource } from '@/features/teams/lib/resource'
import type { Team, TeamSummary } from '@/features/teams/lib/teams'

/** The user's teams, shared by the switcher and the pages that change them. */
export const useTeamsStore = defineStore('teams', () => {
  const list = useResource<{ data: TeamSummary[] }>()
  const teams = computed(() => list.data.value?.data ?? null)
  const current = computed(() => teams.value?.find((team) => team.current) ?? null)
  const switchError = ref<string | null>(null)
  const switcher = useVisit()

  /** Asks the API again: after a team is made, joined, left or deleted, or the current one changed. */
  const load = () => list.load('/api/teams')

  /** Makes `id` the current team; resolves to the team, or undefined when the API refused. */
  function switchTo(id: number): Promise<Team | undefined> {
    switchError.value = null
    return new Promise((resolve) => {
      void switcher.put<{ team: Team }>('/api/teams/current', { team_id: id }, {
        preserveScroll: true,
        onSuccess: ({ data }) => {
          const rows = list.data.value?.data
          if (rows) list.data.value = { data: rows.map((team) => ({ ...team, current: team.id === data.team.id })) }
          resolve(data.team)
        },
        onError: async (errors, raw) => {
          switchError.value = firstError(errors.team_id) ?? errorMessage(raw)
          // Gone meanwhile (removed from it, or it was deleted): show what is left.
          await load()
          resolve(undefined)
        },
        onCancel: () => resolve(undefined),
      })
    })
  }

  /** Signed out, or someone else signed in: these teams are not theirs. */
  function forget() {
    list.cancel()
    list.data.value = null
    switchError.value = null
  }

  const error = computed(() => switchError.value ?? list.error.value)
  return { teams, current, error, loading: list.loading, switching: switcher.processing, load, switchTo, forget }
})
