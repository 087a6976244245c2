/**
 * The English of the workflow and server-run reply refusals a person reads (the Workflows panel, a reply's failed
 * line), by code. Merged into `SERVER_MESSAGES` (server-messages.ts); the app shows `codes.server.workflow.*` and
 * `codes.server.job.*` in the user's language.
 */
export const JOB_SERVER_MESSAGES = {
  'server.noOpenRouterKey': 'No OpenRouter key is configured on the server (NUXT_OPENROUTER_API_KEY).',
  'server.workflow.tooMany': 'You have {max} workflows already: delete one first.',
  'server.workflow.missing': 'No such workflow.',
  'server.workflow.invalid': 'Invalid workflow: {reason}',
  'server.workflow.invalidAt': 'Invalid workflow: {reason} ({path})',
  'server.workflow.noFirstMessage': '"{name}" has no first message: write what to ask.',
  'server.job.missing': 'No such chat job.',
  'server.job.invalidChat': 'Invalid chat: {reason}',
  'server.job.couldNotStart': 'The reply could not start: {reason}',
  'server.job.couldNotStartPlain': 'The reply could not start.',
  'server.job.browserJobs': 'You already have {count} replies running or waiting on the server, the most one browser may have. Wait for one to finish (or stop one), then send again.',
  'server.job.browserBytes': 'Your replies running or waiting on the server already hold {held} of conversation, and this one would take them past {max}. Wait for one to finish (or stop one), or send a shorter conversation.',
  'server.job.networkJobs': '{count} replies from your network are already running or waiting on the server, the most one address may have. Wait for one to finish, then send again.',
  'server.job.networkBytes': 'Replies from your network running or waiting on the server already hold {held} of conversation, and this one would take them past {max}. Wait for one to finish, then send again.',
  'server.job.browserStreams': 'This browser already has {max} chat streams open on this server, the most it may hold. Close tabs of this app you do not use, or wait for running replies to end.',
  'server.job.addressStreams': 'Your address already has {max} chat streams open on this server, the most it may hold. Close tabs of this app you do not use.',
  'server.job.lost': 'The server lost this reply before it finished. Press Retry.',
  'server.job.restarted': 'The server restarted while this job was running. Press Retry.',
  // stored as the record's error without "Press Retry." (stream-handler.ts), coded by job-ending.ts
  'server.job.noChatState': 'The job has no chat state. Press Retry.',
  'server.job.keyLost': 'This reply ran on your own key, which only the server instance that started it held in memory, and that instance stopped. No other instance has your key, so none could go on with it. Press Retry.',
  'server.job.noKey': 'No OpenRouter key is configured on the server (NUXT_OPENROUTER_API_KEY). Press Retry.',
  'server.job.failed': '{reason} Press Retry.',
  'server.job.vanished': 'The server no longer has this reply: its record was deleted (the server\'s storage was cleared or the reply expired). Press Retry.',
  'server.job.badArguments': 'The edited arguments cannot be used: {reason}',
  'server.job.answerMismatch': 'The answer does not fit the form: {reason}',
} as const
