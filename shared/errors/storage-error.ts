export interface StorageErrorOptions {
  /** What we were doing, e.g. 'append message' or 'open database'. */
  operation: string
  cause?: unknown
}

/** Reading or writing local storage (IndexedDB) failed: quota, private mode, blocked upgrade... */
export class StorageError extends Error {
  override readonly name = 'StorageError'
  readonly operation: string

  constructor(message: string, options: StorageErrorOptions) {
    super(message, { cause: options.cause })
    this.operation = options.operation
  }

  static isInstance(value: unknown): value is StorageError {
    return value instanceof StorageError || (value instanceof Error && value.name === 'StorageError')
  }
}
