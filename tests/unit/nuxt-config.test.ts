import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadNuxtConfig } from '@nuxt/kit'

describe('nuxt config', () => {
  it('uses app/ as the source folder, so the root plugins/ folder holds tool plugins, not Nuxt plugins', async () => {
    const config = await loadNuxtConfig({ cwd: process.cwd() })
    expect(config.srcDir).toBe(resolve(process.cwd(), 'app'))
    const nuxtPluginDirs = (config._layers ?? []).map(layer => resolve(layer.config.srcDir ?? layer.cwd, 'plugins'))
    expect(nuxtPluginDirs).not.toContain(resolve(process.cwd(), 'plugins'))
  })

  it('keeps the OpenRouter key in private runtime config, never public', async () => {
    const config = await loadNuxtConfig({ cwd: process.cwd() })
    expect(config.runtimeConfig).toHaveProperty('openrouterApiKey')
    expect(config.runtimeConfig.public).not.toHaveProperty('openrouterApiKey')
  })
})
