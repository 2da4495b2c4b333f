/** The tool name an ACP agent's plan is recorded under (see the ACP backend's event mapper); PlanCard shows it. */
export const PLAN_TOOL = 'acp.plan';
