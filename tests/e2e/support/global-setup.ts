import { ensureDatabaseTemplate } from './instance-database'

/** Before any spec: the embedded database template the specs' own app instances copy (slow once, then kept). */
export default async function globalSetup(): Promise<void> {
  await ensureDatabaseTemplate()
}
