import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { contextFields, envelopeFields } from '../../shared/adcp/adcpRelease'
import { ADCP_TASK_STATUSES, adcpRequestFields, adcpTaskStatus } from '../../shared/contract'
import { bundleText, OUTPUT, tasksText, TASKS_OUTPUT } from '../adcp/syncSchemas.mjs'

describe("AdCP's schemas bundled with Parallax", () => {
  it('are what the generator makes from the installed @adcp/sdk (run node test/adcp/syncSchemas.mjs after updating it)', () => {
    expect(readFileSync(OUTPUT, 'utf8') === bundleText(), 'shared/adcp/adcpSchemas.json is out of date').toBe(true)
    expect(readFileSync(TASKS_OUTPUT, 'utf8')).toBe(tasksText())
  })

  it("keep every schema's rules and its properties named description, without the documentation", () => {
    const bundle = JSON.parse(readFileSync(OUTPUT, 'utf8'))
    expect(bundle.release).toBe('3.0.6')
    const product = bundle.schemas['/schemas/3.0.6/core/product.json']
    expect(product.required).toContain('description')
    expect(product.properties.description).toEqual({ type: 'string' })
    expect(JSON.stringify(bundle)).not.toMatch(/"(examples|enumDescriptions|title)":/)
    for (const task of ['get_products', 'list_creative_formats', 'create_media_buy', 'get_media_buy_delivery', 'get_adcp_capabilities'])
      for (const id of [bundle.tasks[task].request, bundle.tasks[task].response]) expect(bundle.schemas[id], id).toBeDefined()
  })

  it("AdCP's task statuses are the release's (enums/task-status.json), and each protocol's words map onto them", () => {
    const bundle = JSON.parse(readFileSync(OUTPUT, 'utf8'))
    expect([...ADCP_TASK_STATUSES]).toEqual(bundle.schemas[bundle.definitions.taskStatus].enum)
    const words = [
      'completed',
      'error',
      'working',
      'input_required',
      'failed',
      'cancelled',
      'submitted',
      'input-required',
      'auth-required',
      'canceled',
      'rejected',
      'message',
      'end_turn',
      'refusal',
      'max_tokens',
      'no_such_word',
    ]
    expect(words.map(adcpTaskStatus)).toEqual([
      'completed',
      'failed',
      'working',
      'input-required',
      'failed',
      'canceled',
      'submitted',
      'input-required',
      'auth-required',
      'canceled',
      'rejected',
      'completed',
      'completed',
      'rejected',
      'failed',
      'unknown',
    ])
  })

  it("reads from AdCP's own schemas which fields are the protocol's and where the context object goes", () => {
    expect(envelopeFields()).toEqual([
      'context_id',
      'task_id',
      'status',
      'message',
      'timestamp',
      'replayed',
      'push_notification_config',
      'governance_context',
      'payload',
      'task_status',
      'response_status',
    ])
    expect(adcpRequestFields('create_media_buy').has('push_notification_config')).toBe(true)
    expect(adcpRequestFields('get_products').has('push_notification_config')).toBe(false)
    // Every seller task takes the buyer's context and echoes it where core/context.json is referenced.
    for (const task of ['get_products', 'list_creative_formats', 'create_media_buy', 'get_media_buy_delivery', 'update_media_buy'])
      expect([contextFields(task, 'request'), contextFields(task, 'response')], task).toEqual([['context'], ['context']])
    expect(contextFields('no_such_task', 'request')).toEqual([])
  })
})
