import type { KeyObject } from 'node:crypto'
import { LRUCache } from 'lru-cache'

/**
 * What a signature check found, remembered per key. A browser sends the same signed cookie and
 * the same access token with every request until they expire, and the same bytes under the same
 * key always check the same way: the HMAC (and jsonwebtoken's parsing around it) is paid once per
 * token instead of once per request. Only values whose signature was valid get in, at most
 * 10,000 per key (a few MB); callers still check expiry at every use.
 */
export function memoPerKey<V extends {}>(): (key: KeyObject) => LRUCache<string, V> {
  const byKey = new WeakMap<KeyObject, LRUCache<string, V>>()
  return (key) => {
    let memo = byKey.get(key)
    if (!memo) byKey.set(key, (memo = new LRUCache<string, V>({ max: 10_000 })))
    return memo
  }
}
