import { isRecord } from '../../types/is-record'

/**
 * The browser capabilities an app's resource may ask for (`_meta.ui.permissions`), in the extension's names. The
 * spec leaves granting them to the host ("MAY honor"); Plugboard grants none: an app is third-party code the user
 * did not pick for its own sake, and the page's Permissions-Policy keeps camera, microphone and geolocation off for
 * every frame. The app learns it in the protocol's way (the host's `sandbox.permissions` capability is empty) and
 * the user sees on the card what it asked for.
 */
export const MCP_APP_PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const

export type McpAppPermission = typeof MCP_APP_PERMISSIONS[number]

/** The known permissions a resource's `_meta.ui.permissions` asks for, in a fixed order; anything else is ignored. */
export function readMcpAppPermissions(value: unknown): McpAppPermission[] {
  if (!isRecord(value)) return []
  return MCP_APP_PERMISSIONS.filter(name => Object.hasOwn(value, name))
}
