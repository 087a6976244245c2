/**
 * The English of the sync routes' refusals a person reads (Settings → Data, the device's sync state), by code.
 * Merged into `SERVER_MESSAGES` (server-messages.ts); the app shows `codes.server.sync.*` in the user's language.
 */
export const SYNC_SERVER_MESSAGES = {
  'server.sync.off': 'Sync is off on this server (NUXT_SYNC).',
  'server.sync.invalidPush': 'Not a valid sync push: {path}: {reason}',
  'server.sync.clockAhead': 'Not a valid sync push: the clock of {kind} {id} is ahead of the server\'s by more than {minutes} minutes. Check this device\'s date and time.',
  'server.sync.tooManyRecords': 'Sync keeps at most {max} records per account: delete old chats to sync new ones.',
  'server.sync.tooManyBytes': 'Sync keeps at most {megabytes} MB per account: delete old chats or large tool results to sync new ones.',
  'server.sync.tooManyStreams': 'At most {max} open sync streams per account: close some tabs.',
  'server.sync.serverStreamsFull': 'This server holds its most open sync streams ({max}); try again shortly.',
  'server.sync.pullQuery': 'cursor and limit are whole numbers (limit at most {max}).',
  'server.sync.fileQuery': 'A synced file needs an id, its message\'s id (message=) and its type (mime=).',
  'server.sync.noSuchFile': 'No such synced file.',
  'server.sync.fileTooLarge': 'A synced file is at most {megabytes} MB: this one stays on this device.',
  'server.sync.filesTooLarge': 'Synced files of one account take at most {megabytes} MB: delete chats with large files to sync this one.',
} as const
