throw new Error('@nuxt/fonts is not installed: Plugboard turns fonts off (ui.fonts false in nuxt.config.ts). Remove the override of @nuxt/fonts in package.json to turn them on.')
