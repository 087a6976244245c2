/**
 * Hands the operator's origin overrides (NUXT_PUBLIC_CONNECT_ORIGIN_OVERRIDES) to the tools' fetch: the same
 * ones the server put into the page's policy, so a declared origin and the request to it always agree. Loaded
 * only when an override is set (tests, an operator's mirror): the page without one loads none of this.
 */
export async function applyConnectOriginOverrides(text: string | undefined): Promise<void> {
  if (!text) return
  const [{ parseConnectOriginOverrides }, { setConnectOriginOverrides }] = await Promise.all([
    import('#shared/security/declared-origins'),
    import('#shared/tools/tool-fetch'),
  ])
  setConnectOriginOverrides(parseConnectOriginOverrides(text))
}
