export interface ConformanceCheck {
  id: string
  name?: string
  description?: string
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED'
  errorMessage?: string
}
export interface ScenarioRun {
  code: number | null
  checks: ConformanceCheck[]
  output: string
}
export declare const RUNNERS: { current: string; next: string }
export declare const NODE22: string
export declare const PARALLAX_CLIENT: string
export declare function clientScenarios(runner?: string): string[]
export declare function runScenario(name: string, options?: { runner?: string; command?: string; timeout?: number }): Promise<ScenarioRun>
export declare function verdict(run: ScenarioRun): { passed: boolean; failed: ConformanceCheck[]; succeeded: number }
export declare function inBatches<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]>
