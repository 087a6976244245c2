export { DuplicateToolError } from '#shared/errors/duplicate-tool-error'
