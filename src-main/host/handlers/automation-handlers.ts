import type { HandlerTable } from '../handler';

type AutomationOperation =
  | 'schedule.create'
  | 'schedule.update'
  | 'schedule.pause'
  | 'schedule.resume'
  | 'schedule.remove'
  | 'schedule.list'
  | 'schedule.get'
  | 'schedule.preview'
  | 'schedule.runNow'
  | 'schedule.history'
  | 'dailyReview.get'
  | 'dailyReview.update'
  | 'dailyReview.runNow';

export const automationHandlers: HandlerTable<AutomationOperation> = {
  'schedule.create': ({ runtime }, input) => runtime.automations.service.create(input),
  'schedule.update': ({ runtime }, input) => runtime.automations.service.update(input),
  'schedule.pause': ({ runtime }, input) => runtime.automations.service.setEnabled(input.taskId, false),
  'schedule.resume': ({ runtime }, input) => runtime.automations.service.setEnabled(input.taskId, true),
  'schedule.remove': ({ runtime }, input) => runtime.automations.service.remove(input.taskId),
  'schedule.list': ({ runtime }) => runtime.automations.service.list(),
  'schedule.get': ({ runtime }, input) => runtime.automations.service.get(input.taskId),
  'schedule.preview': ({ runtime }, input) => runtime.automations.service.preview(input),
  'schedule.runNow': ({ runtime }, input) => runtime.automations.service.runNow(input.taskId, input.requestId),
  'schedule.history': ({ runtime }, input) => runtime.automations.service.history(input.taskId, input.limit),
  'dailyReview.get': ({ runtime }) => runtime.automations.service.reviewConfig(),
  'dailyReview.update': ({ runtime }, input) => runtime.automations.service.updateReview(input),
  'dailyReview.runNow': ({ runtime }, input) => runtime.automations.service.reviewNow(input.requestId),
};
