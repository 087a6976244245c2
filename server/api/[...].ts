/** Any /api path no route answers: a JSON 404, not the app's HTML page. */
export default defineEventHandler((event) => {
  throw createError({ statusCode: 404, statusMessage: 'Not Found', message: `No API route at ${event.path.split('?')[0]!.slice(0, 200)}.` })
})
