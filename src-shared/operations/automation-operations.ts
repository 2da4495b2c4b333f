import { z } from 'zod';
import type { DailyReviewConfig, Firing, ScheduledTask } from '../automation-model';
import { PERMISSION_MODES } from '../model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id, title } from './fields';

const weekday = z.union([
  z.literal(0),
  z.literal(1),
  z.literal(2),
  z.literal(3),
  z.literal(4),
  z.literal(5),
  z.literal(6),
]);

export const scheduleSpec = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('once'), at: wellFormedString().max(40) }),
  z.strictObject({ kind: z.literal('every'), minutes: z.number().int() }),
  z.strictObject({ kind: z.literal('daily'), time: wellFormedString().max(10), weekdays: z.array(weekday).max(7) }),
  z.strictObject({
    kind: z.literal('cron'),
    expression: wellFormedString().trim().min(1, 'Write a cron expression').max(200),
  }),
]);

export const taskTarget = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('session'), sessionId: id }),
  z.strictObject({
    kind: z.literal('newSession'),
    connectionId: id,
    model: wellFormedString().min(1).max(200).nullable(),
    workspacePath: wellFormedString().min(1).max(4096).nullable(),
    permissionMode: z.enum(PERMISSION_MODES),
  }),
]);

const timeZone = wellFormedString().min(1).max(64);
const prompt = wellFormedString().trim().min(1, 'Say what the agent should do').max(20_000);
const catchUpMinutes = z
  .number()
  .int()
  .min(0)
  .max(7 * 24 * 60);

const taskFields = {
  title,
  prompt,
  target: taskTarget,
  schedule: scheduleSpec,
  timeZone,
  effect: z.enum(['turn', 'notify']),
  catchUpMinutes: catchUpMinutes.optional(),
};

const taskRef = z.strictObject({ taskId: id });
const taskResult = ['not_found'] as const;

export const automationOperations = {
  /** `taskId` is chosen by the client, so a retried create answers the task it made. */
  'schedule.create': defineOperation<{ task: ScheduledTask }>()({
    mode: 'command',
    input: z.strictObject({ taskId: id, ...taskFields, enabled: z.boolean().optional() }),
    errors: ['invalid_input', 'operation_conflict'],
  }),
  'schedule.update': defineOperation<{ task: ScheduledTask }>()({
    mode: 'command',
    input: z.strictObject({ taskId: id, expectedRevision: z.number().int().min(0), ...taskFields }),
    errors: ['invalid_input', 'not_found', 'revision_conflict'],
  }),
  'schedule.pause': defineOperation<{ task: ScheduledTask }>()({ mode: 'command', input: taskRef, errors: taskResult }),
  'schedule.resume': defineOperation<{ task: ScheduledTask }>()({
    mode: 'command',
    input: taskRef,
    errors: ['not_found', 'invalid_input'],
  }),
  'schedule.remove': defineOperation<{ removed: boolean }>()({ mode: 'command', input: taskRef, errors: [] }),
  'schedule.list': defineOperation<{ tasks: readonly ScheduledTask[] }>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  /** The next runs of a schedule as written so far (the form's preview), or why it cannot run. */
  'schedule.preview': defineOperation<{ nextRuns: readonly number[]; problem: string | null }>()({
    mode: 'query',
    input: z.strictObject({ schedule: scheduleSpec, timeZone, count: z.number().int().min(1).max(20) }),
    errors: [],
  }),
  'schedule.get': defineOperation<{ task: ScheduledTask }>()({ mode: 'query', input: taskRef, errors: taskResult }),
  /** Fires the task now, outside its schedule; `requestId` (client-chosen) makes a retry answer the same firing. */
  'schedule.runNow': defineOperation<{ firing: Firing }>()({
    mode: 'command',
    input: z.strictObject({ taskId: id, requestId: id }),
    errors: ['not_found', 'session_archived', 'host_draining', 'session_busy'],
  }),
  'schedule.history': defineOperation<{ firings: readonly Firing[] }>()({
    mode: 'query',
    input: z.strictObject({ taskId: id, limit: z.number().int().min(1).max(200).optional() }),
    errors: taskResult,
  }),
  'dailyReview.get': defineOperation<{ config: DailyReviewConfig }>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  'dailyReview.update': defineOperation<{ config: DailyReviewConfig }>()({
    mode: 'command',
    input: z.strictObject({
      expectedRevision: z.number().int().min(0),
      enabled: z.boolean(),
      time: wellFormedString().max(10),
      timeZone,
      connectionId: id.nullable(),
      model: wellFormedString().min(1).max(200).nullable(),
    }),
    errors: ['invalid_input', 'operation_conflict'],
  }),
  /** Runs today's review now (the review's Run now). */
  'dailyReview.runNow': defineOperation<{ firing: Firing }>()({
    mode: 'command',
    input: z.strictObject({ requestId: id }),
    errors: ['operation_conflict', 'host_draining', 'session_busy'],
  }),
} as const;
