import { getToolRegistry } from '../registry/tool-registry-singleton'
import { createUserToolsRegistration } from './user-tools-registration'
import type { UserToolsRegistration } from './user-tools-registration'

const KEY = Symbol.for('plugboard.userToolsRegistration')
type GlobalWithRegistration = typeof globalThis & { [KEY]?: UserToolsRegistration }

/** The app's one registration of the user's tools into `getToolRegistry()`, kept on globalThis across hot reloads. */
export function getUserToolsRegistration(): UserToolsRegistration {
  const holder = globalThis as GlobalWithRegistration
  return (holder[KEY] ??= createUserToolsRegistration(getToolRegistry()))
}
