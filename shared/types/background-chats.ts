/**
 * The status a browser-only tool's card shows while a chat running on the server waits for a tab of its session
 * to run it (server/utils/background-jobs/runner/browser-tool.ts sets it, the tab answers when it sees it).
 */
export const WAITING_FOR_BROWSER = 'waiting for this browser'
