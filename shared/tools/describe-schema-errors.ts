import type { OutputUnit } from '@cfworker/json-schema'
import type { ToolInputIssue } from '../errors/invalid-tool-input-error'
import { describeSchemaError, isAlternativeError, isSummaryError } from './describe-schema-error'
import { MAX_DESCRIBED_ISSUES } from './tool-limits'

export interface DescribedSchemaErrors {
  /** Short field-level issues, at most `maxIssues`, in the validator's order. */
  issues: ToolInputIssue[]
  /** Further issues found but not described. */
  omittedIssues: number
}

export interface DescribeSchemaErrorsOptions {
  /** Issues to describe; the others are only counted. @default MAX_DESCRIBED_ISSUES */
  maxIssues?: number
}

/**
 * cfworker's errors → short field-level issues, without the parent summaries that a child error explains and
 * without the branch errors an anyOf/oneOf/not error speaks for.
 *
 * One pass, reading each error a fixed number of times: a model can send arguments with a hundred thousand
 * errors, and this runs on the tab's main thread. cfworker lists a parent error right before the errors of its
 * subschemas, so a failing anyOf's branches are the errors that follow it under its keyword location. Only the
 * described issues are deduplicated; the count of the others may include repeats.
 */
export function describeSchemaErrors(errors: OutputUnit[], options: DescribeSchemaErrorsOptions = {}): DescribedSchemaErrors {
  const { maxIssues = MAX_DESCRIBED_ISSUES } = options
  // Repeats cost a description each: past this many, stop describing so a schema of repeated allOf branches
  // cannot make us decode thousands of long paths.
  const maxDescribed = maxIssues * 3
  const issues: ToolInputIssue[] = []
  const seen = new Set<string>()
  let described = 0
  let omittedIssues = 0
  let branchPrefix: string | undefined
  for (let position = 0; position < errors.length; position++) {
    const error = errors[position]!
    if (branchPrefix !== undefined) {
      if (error.keywordLocation.startsWith(branchPrefix)) continue
      branchPrefix = undefined
    }
    // Every summary is followed by its children's errors, which say what is wrong.
    if (isSummaryError(error)) continue
    if (isAlternativeError(error)) branchPrefix = `${error.keywordLocation}/`
    if (issues.length >= maxIssues || described >= maxDescribed) {
      omittedIssues++
      continue
    }
    const issue = describeSchemaError(errors, position)
    described++
    const key = `${issue.path}\u0000${issue.message}`
    if (seen.has(key)) continue
    seen.add(key)
    issues.push(issue)
  }
  if (issues.length === 0) issues.push({ path: '', message: 'do not match the schema' })
  return { issues, omittedIssues }
}
