import { startChatWorker } from '../utils/background-jobs/chat-worker'

/** Every instance runs background chats: queued here or on another instance sharing its Redis. */
export default defineNitroPlugin(() => {
  startChatWorker()
})
