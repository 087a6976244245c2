import { format } from '@cfworker/json-schema'

/**
 * cfworker's `url` format with its two backtracking traps rewritten to the same language:
 * `(?:[x]+-?)*[x]+` (exponential: 30 characters of `http://aaa…!` took 8 s) as `[x]+(?:-[x]+)*`, and
 * `\S+(?::\S*)?@` (quadratic) as `\S+@`, since `:` is itself `\S`. The other formats of cfworker 4.1 stay as
 * they are: each was timed on 2 KB and 20 KB hostile strings of every shape that targets its quantifiers, and
 * none grew faster than the input.
 */
const URL_FORMAT = /^(?:(?:https?|ftp):\/\/)(?:\S+@)?(?:(?!10(?:\.\d{1,3}){3})(?!127(?:\.\d{1,3}){3})(?!169\.254(?:\.\d{1,3}){2})(?!192\.168(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))|[a-z\u{00a1}-\u{ffff}0-9]+(?:-[a-z\u{00a1}-\u{ffff}0-9]+)*(?:\.[a-z\u{00a1}-\u{ffff}0-9]+(?:-[a-z\u{00a1}-\u{ffff}0-9]+)*)*(?:\.(?:[a-z\u{00a1}-\u{ffff}]{2,})))(?::\d{2,5})?(?:\/[^\s]*)?$/iu

let installed = false

/**
 * Puts the bounded formats into cfworker's `format` table, the table its validator reads (once; later calls do
 * nothing). Every cfworker validator of the bundle, the MCP SDK's included, then uses them.
 */
export function installBoundedFormats(): void {
  if (installed) return
  installed = true
  format.url = input => URL_FORMAT.test(input)
}
