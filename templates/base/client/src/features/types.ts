import type { Component } from 'vue'
import type { LocationQuery, RouteLocationRaw, RouteRecordRaw } from 'vue-router'

/** What a feature adds to the login page. */
export interface LoginExtension {
  /**
   * Another way to sign in, shown under the form. It gets the form's "Remember me" as the prop
   * `remember` and finishes a sign-in itself.
   */
  component?: Component<{ remember: boolean }>
  /** Tokens after `username` in the e-mail field's `autocomplete` (the browser's autofill hints). */
  autocomplete?: string
}

/** What a feature adds to the register page. */
export interface RegisterExtension {
  /** Another way to sign up, shown under the form; it finishes the sign-up itself. */
  component?: Component
}

/**
 * What a feature layer adds to the client: it ships `features/<layer>.ts` exporting
 * `feature: ClientFeature`, and base reads the list in `features/index.ts`, never a feature by name.
 */
export interface ClientFeature {
  /** Top-level pages (a second sign-in step, say). */
  routes?: RouteRecordRaw[]
  /** Pages under /settings, each in the settings nav under its `meta.title`, before "Delete account". */
  settings?: (RouteRecordRaw & { meta: { title: string } })[]
  /**
   * A login answer the feature takes over: where to go instead of signing in (a page
   * asking for a second factor), or undefined to let the sign-in finish.
   */
  afterLogin?(data: unknown, redirect: LocationQuery[string] | undefined): RouteLocationRaw | undefined
  login?: LoginExtension
  register?: RegisterExtension
}
