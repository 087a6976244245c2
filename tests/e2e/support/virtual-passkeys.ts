// Chromium's virtual authenticator (CDP WebAuthn domain) as a person's device: a platform authenticator (ctap2,
// internal transport) with resident keys and user verification that answers every passkey prompt at once.
import type { CDPSession, Page } from '@playwright/test'

export interface VirtualDevice {
  cdp: CDPSession
  authenticatorId: string
}

export async function addVirtualDevice(page: Page): Promise<VirtualDevice> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  return { cdp, authenticatorId }
}

/** The device's passkeys (private keys included: what a passkey provider syncs to a person's other devices). */
export async function devicePasskeys(device: VirtualDevice) {
  return (await device.cdp.send('WebAuthn.getCredentials', { authenticatorId: device.authenticatorId })).credentials
}

/** A passkey synced from another device: the same credential, now on this one. */
export async function syncPasskeys(from: VirtualDevice, to: VirtualDevice): Promise<void> {
  for (const credential of await devicePasskeys(from)) await to.cdp.send('WebAuthn.addCredential', { authenticatorId: to.authenticatorId, credential })
}
