/**
 * Any /api path no route answers: a JSON 404 whatever the client accepts (Nuxt's error page would answer a
 * browser with HTML, and the SPA fallback with the app's page and 200).
 */
export default defineEventHandler((event) => {
  setResponseStatus(event, 404, 'Not Found')
  setResponseHeader(event, 'content-type', 'application/json')
  return { statusCode: 404, statusMessage: 'Not Found', message: `No API route at ${event.path.split('?')[0]!.slice(0, 200)}.` }
})
