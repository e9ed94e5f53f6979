import { describe, expect, it } from 'vitest'
import { features } from '../src/features/index.js'
import { FeatureOrderError, orderFeatures } from '../src/kernel/feature-order.js'

const layer = (name: string, after?: string[]) => ({ name, after })
const namesOf = (list: readonly { name: string }[]) => list.map((feature) => feature.name)

describe('the registry in its layers’ `after` order', () => {
  it('keeps the registry’s order where no layer asks otherwise', () => {
    expect(namesOf(orderFeatures([layer('a'), layer('b'), layer('c')]))).toEqual(['a', 'b', 'c'])
    expect(orderFeatures([])).toEqual([])
  })

  it('puts a layer after the ones it names, and otherwise where it was (stable)', () => {
    expect(namesOf(orderFeatures([layer('b', ['c']), layer('a'), layer('c'), layer('d')]))).toEqual(['a', 'c', 'b', 'd'])
    expect(namesOf(orderFeatures([layer('c', ['a', 'b']), layer('b', ['a']), layer('a')]))).toEqual(['a', 'b', 'c'])
  })

  it('refuses a name the app lacks, in one line naming both', () => {
    expect(() => orderFeatures([layer('second', ['first'])])).toThrow(FeatureOrderError)
    expect(() => orderFeatures([layer('second', ['first'])])).toThrow(/^Feature "second" comes after "first", which this app does not have/)
  })

  it('refuses a cycle, in one line naming it', () => {
    const attempt = () => orderFeatures([layer('x'), layer('a', ['c']), layer('b', ['a']), layer('c', ['b'])])
    expect(attempt).toThrow(FeatureOrderError)
    expect(attempt).toThrow('Features come after each other in a cycle: a → c → b → a.')
    expect(() => orderFeatures([layer('a', ['a'])])).toThrow('a cycle: a → a.')
  })

  it('orders this app’s registry as it is listed: every layer’s `after` already holds', () => {
    expect(namesOf(orderFeatures(features))).toEqual(namesOf(features))
  })
})
