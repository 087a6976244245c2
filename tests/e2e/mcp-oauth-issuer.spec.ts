import { expect, test } from '@playwright/test'
import { openApp } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startMcpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'
import type { McpOAuthTestServer } from '../fixtures/mcp-server/mcp-oauth-test-server'
import { addMcpServer, signInThroughPopup } from './support/mcp-settings'

// The mix-up defence in the built app, against real authorization servers (the SDK's demo, which approves at once
// and redirects back without `iss`) reached through the app's relay: one whose metadata names an attacker's issuer,
// one that promises `iss` in every answer and then leaves it out (as a forged answer would).
let app: AppInstance
let impostor: McpOAuthTestServer
let promising: McpOAuthTestServer

test.beforeAll(async () => {
  impostor = await startMcpOAuthTestServer({ metadata: { issuer: 'https://attacker.example/' } })
  promising = await startMcpOAuthTestServer({ metadata: { authorization_response_iss_parameter_supported: true } })
  app = await startApp({ NUXT_MCP_ALLOWED_HOSTS: `127.0.0.1:${impostor.port},127.0.0.1:${promising.port}` })
})

test.afterAll(async () => {
  await app?.stop()
  await Promise.all([impostor?.close(), promising?.close()])
})

test.describe('MCP sign-in refuses a mix-up', () => {
  test('a server whose sign-in metadata names another issuer says so, and nothing is opened or registered', async ({ page }) => {
    await openApp(page, app.url)
    const popups: string[] = []
    page.on('popup', popup => void popups.push(popup.url()))
    const server = await addMcpServer(page, 'Impostor', impostor.url, { connected: false })
    await expect(server).toHaveAttribute('data-status', 'error', { timeout: 15_000 })
    await expect(server.getByTestId('mcp-server-message')).toContainText('https://attacker.example/', { timeout: 15_000 })
    await expect(server.getByTestId('mcp-server-message')).toContainText('signing in is refused')
    await expect(server.getByTestId('mcp-server-signed-in')).toHaveCount(0)
    expect(popups).toEqual([])
    expect(impostor.grants).toEqual([])
  })

  test('an answer without iss from a server that promises one is refused in Settings, and its code is never traded', async ({ page }) => {
    await openApp(page, app.url)
    const server = await addMcpServer(page, 'Promising', promising.url, { connected: false })
    await expect(server.getByTestId('mcp-server-sign-in')).toBeVisible({ timeout: 15_000 })
    await signInThroughPopup(page, server.getByTestId('mcp-server-sign-in'))
    await expect(server.getByTestId('mcp-server-sign-in-error')).toContainText('does not say which server sent it (iss)', { timeout: 15_000 })
    await expect(server.getByTestId('mcp-server-signed-in')).toHaveCount(0)
    expect(promising.grants).not.toContain('authorization_code')
  })
})
