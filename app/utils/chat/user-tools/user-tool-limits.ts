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
/** How long a call may run when the tool does not say. The worker is terminated when it passes (see below). */
export const USER_TOOL_DEFAULT_TIMEOUT_MS = 5_000
export const USER_TOOL_MIN_TIMEOUT_MS = 100
export const USER_TOOL_MAX_TIMEOUT_MS = 60_000
/**
 * QuickJS's interrupt handler stops the handler at its time limit, but only where it is consulted: not inside one
 * long native call (a 1 MB `repeat`, a huge `sort`), nor in an engine that crashed. The page terminates the worker
 * this much after the limit whatever it is doing, so the usual message is still the sandbox's own and no call runs
 * more than this past its limit.
 */
export const USER_TOOL_KILL_MARGIN_MS = 250
/** The executor's timeout for a tool written in the app is later still: it only ends a call the page's kill missed. */
export const USER_TOOL_EXECUTOR_MARGIN_MS = 1_000

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
