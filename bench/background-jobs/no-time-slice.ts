// runner-time-slice.ts as the variants without it see it: a runner never waits for the next turn.
export function createRunnerTimeSlice(): () => Promise<void> {
  return async () => {}
}

export const yieldToServing = createRunnerTimeSlice()
