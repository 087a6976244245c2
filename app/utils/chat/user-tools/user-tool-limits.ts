/**
 * The bounds of a tool written in the app. Every one is enforced where the data enters: the editor, the import,
 * the worker. Raising one is a decision, not a tweak: they keep a hostile tool from hurting the tab.
 */

/** Heap of one call's QuickJS runtime: an allocation past it fails with "out of memory" inside the sandbox. */
export const USER_TOOL_MEMORY_BYTES = 32 * 1024 * 1024
/**
 * QuickJS's own stack guard: deep recursion fails with "stack overflow" inside the sandbox. Kept small because the
 * WebAssembly frames also use the host's stack (about 1 MB in Node and in a worker): at 256 KB deep JSON nesting
 * already overflowed the host first.
 */
export const USER_TOOL_STACK_BYTES = 128 * 1024
/** How long a call may run when the tool does not say. The worker is terminated when it passes. */
export const USER_TOOL_DEFAULT_TIMEOUT_MS = 5_000
export const USER_TOOL_MIN_TIMEOUT_MS = 100
export const USER_TOOL_MAX_TIMEOUT_MS = 60_000
/**
 * QuickJS's interrupt handler stops the handler at its time limit; the page kills the worker this much later, so
 * the usual message is the sandbox's own ("ran past its time limit") and the kill is the backstop for whatever
 * ignores it.
 */
export const USER_TOOL_KILL_MARGIN_MS = 1_000

/** console.log output kept per call (lines and characters); the rest is counted, not kept. */
export const USER_TOOL_MAX_LOG_LINES = 100
export const USER_TOOL_MAX_LOG_CHARS = 10_000
/** A returned value longer than this (as text) is refused: the executor would cut it for the model anyway. */
export const USER_TOOL_MAX_RESULT_CHARS = 1_000_000

export const USER_TOOL_MAX_CODE_CHARS = 64_000
export const USER_TOOL_MAX_DESCRIPTION_CHARS = 2_000
export const USER_TOOL_MAX_SCHEMA_CHARS = 32_000
/** An import file larger than this is refused before it is parsed. */
export const USER_TOOLS_MAX_IMPORT_BYTES = 1_000_000
export const USER_TOOLS_MAX_COUNT = 200
