/**
 * A strict Content-Security-Policy on every response. No eval anywhere (the JSON Schema validator and the code
 * highlighter are CSP-safe); 'unsafe-inline' scripts only for Nuxt's inline config script. connect-src allows
 * http: because local model servers (Ollama, LM Studio) usually run without TLS on the LAN.
 */
const CONTENT_SECURITY_POLICY = [
  `default-src 'self'`,
  `script-src 'self' 'unsafe-inline'`,
  `style-src 'self' 'unsafe-inline'`,
  `img-src 'self' data: https:`,
  `connect-src 'self' https: http:`,
  `object-src 'none'`,
  `base-uri 'self'`,
  `frame-ancestors 'none'`,
].join('; ')

export default defineEventHandler((event) => {
  setResponseHeaders(event, {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  })
})
