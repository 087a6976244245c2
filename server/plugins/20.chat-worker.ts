import { startChatWorker } from '../utils/background-jobs/runner/chat-worker'

/** Every instance runs background chats: queued here or on another instance sharing its Redis. */
export default defineNitroPlugin(() => {
  startChatWorker()
})
