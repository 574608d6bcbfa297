/** The diagram's fixed measures, in layout units (= CSS pixels at zoom 1). */
export const GEOMETRY = {
  podW: 172,
  podH: 58,
  podGap: 8,
  nodePad: 10,
  nodeHeader: 56,
  nodeGap: 18,
  pillH: 18,
  pillGap: 3,
  pillMinW: 20,
  pillMaxW: 96,
  dividerW: 9,
} as const;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
