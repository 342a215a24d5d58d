// The spec's migration content rules, as data: old core rule set (2.x) sensitivity/action -> new core rule set (3.x).
// Shared by the ruleset hovers (explained in place) and the mock backend (which derives each zone's new config from it).

export type OldSensitivity = 'high' | 'medium' | 'low' | 'default';
export type OldAction = 'simulate' | 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log' | 'default';

export interface NewCrsLevel {
  /** Paranoia level, 1..4. */
  paranoiaLevel: 1 | 2 | 3 | 4;
  /** Score threshold name in the dashboard and the minimum score it means. */
  thresholdName: 'Low' | 'Medium' | 'High';
  scoreThreshold: number;
}

/** The spec's sensitivity table. */
export const SENSITIVITY_MAP: Record<OldSensitivity, NewCrsLevel> = {
  high: { paranoiaLevel: 2, thresholdName: 'Medium', scoreThreshold: 40 },
  medium: { paranoiaLevel: 1, thresholdName: 'High', scoreThreshold: 25 },
  low: { paranoiaLevel: 1, thresholdName: 'Medium', scoreThreshold: 40 },
  default: { paranoiaLevel: 2, thresholdName: 'Medium', scoreThreshold: 40 },
};

/** "The action of the old core rule set maps almost directly to the new one; the action Simulate becomes Log." */
export function mapOldAction(action: string): string {
  const a = action.toLowerCase();
  if (a === 'simulate') return 'log';
  if (a === 'default') return 'block';
  return a;
}

export function mapSensitivity(s: string): NewCrsLevel | undefined {
  return SENSITIVITY_MAP[s.toLowerCase() as OldSensitivity];
}

/** Markdown explaining the mapping, for hovers. */
export function explainMapping(sensitivity?: string, action?: string): string {
  const rows = (Object.keys(SENSITIVITY_MAP) as OldSensitivity[]).map((k) => {
    const v = SENSITIVITY_MAP[k];
    const mark = sensitivity && sensitivity.toLowerCase() === k ? ' **←**' : '';
    return `| ${k[0].toUpperCase() + k.slice(1)} | PL${v.paranoiaLevel} | ${v.thresholdName}, ${v.scoreThreshold} or higher |${mark}`;
  });
  const lines = [
    '**Old → new core rule set (2.x → 3.x)**', '', '| Old sensitivity | New PL | New score threshold |', '|---|---|---|', ...rows, '',
    'The old action maps almost directly; **Simulate becomes Log**. Group and rule overrides of the old core rule set are not migrated and must be recreated.',
  ];
  if (action) lines.push('', `Old action \`${action}\` → new action \`${mapOldAction(action)}\`.`);
  return lines.join('\n');
}
