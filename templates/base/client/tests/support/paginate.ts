import type { Paginated } from '@/types'

export interface Person {
  id: number
  name: string
  email: string
}

export const people: Person[] = Array.from({ length: 57 }, (_, i) => ({
  id: i + 1,
  name: `Person ${i + 1}`,
  email: `person${i + 1}@example.com`,
}))

/** What the API answers for `?page&size&search`: the paginated object. */
export function paginate(page = 1, size = 10, search = '', rows: Person[] = people, path = '/api/people'): Paginated<Person> {
  const found = rows.filter((p) => !search || `${p.name} ${p.email}`.toLowerCase().includes(search.toLowerCase()))
  const last = Math.max(1, Math.ceil(found.length / size))
  return {
    data: found.slice((page - 1) * size, page * size),
    current_page: page,
    last_page: last,
    per_page: size,
    total: found.length,
    path,
  }
}
