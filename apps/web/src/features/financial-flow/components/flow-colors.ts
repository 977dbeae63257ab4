import type { FlowNodeKind } from '@outlay/contracts/financial-flow';

/** One colour per column of the diagram, also used by its legend (contrast ≥ 3:1 on white). */
export const FLOW_KIND_COLORS: Record<FlowNodeKind, string> = {
  organization: '#1d4ed8',
  department: '#0f766e',
  category: '#b45309',
  vendor: '#7c3aed',
};

export const FLOW_KIND_PLURALS: Record<FlowNodeKind, string> = {
  organization: 'Organizations',
  department: 'Departments',
  category: 'Categories',
  vendor: 'Vendors',
};
