import { listDemoModels } from '../../../utils/demo-model/demo-models'

/** GET /api/demo/v1/models: the demo model in OpenRouter's shape, so the model picker can list it. */
export default defineEventHandler(() => listDemoModels())
