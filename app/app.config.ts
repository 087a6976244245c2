export default defineAppConfig({
  ui: { colors: { primary: 'violet', neutral: 'zinc' } },
})
