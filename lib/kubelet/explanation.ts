/**
 * An explanation of a derived value: which rule decided it and the inputs that mattered.
 *
 * Explanations are data, not sentences: `id` names a message template in the `why` catalogue
 * (messages/<locale>/why.json) and `params` fills it, so every explanation reads naturally in
 * each language (lib/i18n renders them). Kubernetes terms inside params stay as kubectl prints them.
 */
export type ExplanationParam = string | number | boolean | readonly string[];

export interface Explanation {
  /** Message id in the `why` catalogue, e.g. `phase.running.restartingAlways`. */
  id: string;
  params?: Readonly<Record<string, ExplanationParam>>;
  /** The upstream rule that decided it, e.g. `pkg/kubelet/kubelet_pods.go getPhase`. */
  rule?: string;
  /** The inputs that decided it, for the detail panel ("restartPolicy: Always", "running: 1"). */
  inputs?: Readonly<Record<string, string | number | boolean | null>>;
}

export function explain(
  id: string,
  params?: Record<string, ExplanationParam>,
  extra?: Pick<Explanation, 'rule' | 'inputs'>,
): Explanation {
  return { id, ...(params ? { params } : {}), ...extra };
}
