import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ArrowDown, ArrowUp, GripVertical, Plus, Trash2 } from 'lucide-react';
import { useEffect } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { RELATIVE_ROLE_LABELS, RELATIVE_ROLES, STEP_MODE_LABELS, type WorkflowForm } from '@outlay/contracts/workflows';
import { FormFieldCheckbox, FormFieldSelect, FormFieldText } from '@/components/form';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { FormFieldApprover } from '@/components/approver-picker';

export const NEW_STEP: WorkflowForm['steps'][number] = {
  name: '',
  approverKind: 'relative_role',
  approverRole: 'manager',
  approverUserId: null,
  mode: 'any',
  slaHours: 48,
  fallbackUserId: null,
  balance: false,
};

const ROLE_OPTIONS = RELATIVE_ROLES.map((r) => ({ value: r, label: RELATIVE_ROLE_LABELS[r] }));
const KIND_OPTIONS = [
  { value: 'relative_role', label: 'A role relative to the request' },
  { value: 'user', label: 'A named person' },
];
const MODE_OPTIONS = (['any', 'all'] as const).map((m) => ({ value: m, label: STEP_MODE_LABELS[m] }));

interface StepCardProps {
  id: string;
  index: number;
  count: number;
  organizationId: string | null;
  /** Names of saved users, to show a saved approver/fallback before the list is searched. */
  names: Record<string, string>;
  onMove: (from: number, to: number) => void;
  onRemove: () => void;
}

function StepCard({ id, index, count, organizationId, names, onMove, onRemove }: StepCardProps) {
  const form = useFormContext<WorkflowForm>();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
  });
  const kind = form.watch(`steps.${index}.approverKind`);
  const mode = form.watch(`steps.${index}.mode`);
  const name = form.watch(`steps.${index}.name`) || `Step ${index + 1}`;
  const approverUserId = form.watch(`steps.${index}.approverUserId`);
  const fallbackUserId = form.watch(`steps.${index}.fallbackUserId`);
  const balance = form.watch(`steps.${index}.balance`);
  useEffect(() => {
    // Balancing applies to "any one of" steps only.
    if (mode === 'all' && balance) form.setValue(`steps.${index}.balance`, false);
  }, [mode, balance, index, form]);

  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={cn(
        'rounded-lg border bg-card p-3 shadow-xs sm:p-4',
        isDragging && 'relative z-10 shadow-lg ring-2 ring-ring',
      )}
      data-testid="workflow-step"
      aria-label={`Step ${index + 1}: ${name}`}
    >
      <div className="mb-3 flex items-center gap-2">
        <button
          type="button"
          ref={setActivatorNodeRef}
          className="cursor-grab touch-none rounded p-1.5 text-muted-foreground hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring active:cursor-grabbing"
          aria-label={`Drag to reorder step ${index + 1}: ${name}`}
          {...attributes}
          {...listeners}
        >
          <GripVertical className="size-4" aria-hidden="true" />
        </button>
        <span
          className="flex size-6 shrink-0 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
          aria-hidden="true"
        >
          {index + 1}
        </span>
        <span className="min-w-0 flex-1 truncate text-sm font-semibold">{name}</span>
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={`Move step ${index + 1} up`}
          disabled={index === 0}
          onClick={() => onMove(index, index - 1)}
        >
          <ArrowUp aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-8"
          aria-label={`Move step ${index + 1} down`}
          disabled={index === count - 1}
          onClick={() => onMove(index, index + 1)}
        >
          <ArrowDown aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-8 text-destructive"
          aria-label={`Remove step ${index + 1}`}
          disabled={count === 1}
          onClick={onRemove}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <FormFieldText<WorkflowForm>
          name={`steps.${index}.name`}
          label="Step name"
          required
          placeholder="e.g. Department head"
        />
        <FormFieldSelect<WorkflowForm>
          name={`steps.${index}.approverKind`}
          label="Who approves"
          options={KIND_OPTIONS}
        />
        {kind === 'user' ? (
          <FormFieldApprover<WorkflowForm>
            name={`steps.${index}.approverUserId`}
            label="Approver"
            required
            organizationId={organizationId}
            valueLabel={approverUserId ? (names[approverUserId] ?? null) : null}
            placeholder="Search people…"
          />
        ) : (
          <FormFieldSelect<WorkflowForm>
            name={`steps.${index}.approverRole`}
            label="Role"
            required
            options={ROLE_OPTIONS}
            placeholder="Choose a role"
          />
        )}
        <FormFieldSelect<WorkflowForm>
          name={`steps.${index}.mode`}
          label="Decision"
          options={MODE_OPTIONS}
          hint="“All of” needs every resolved approver."
        />
        <FormFieldText<WorkflowForm>
          name={`steps.${index}.slaHours`}
          label="SLA (hours)"
          type="number"
          min={1}
          max={720}
          required
          hint="Reminder at half, escalation when it runs out."
        />
        <FormFieldApprover<WorkflowForm>
          name={`steps.${index}.fallbackUserId`}
          label="Fallback approver"
          organizationId={organizationId}
          valueLabel={fallbackUserId ? (names[fallbackUserId] ?? null) : null}
          placeholder="None: escalate up the ladder"
        />
        <FormFieldCheckbox<WorkflowForm>
          name={`steps.${index}.balance`}
          label="Balance the load"
          description={
            mode === 'any' ? 'Only the candidate with the fewest open items gets it.' : 'Only for “any one of” steps.'
          }
          disabled={mode !== 'any'}
          className="sm:col-span-2"
        />
      </div>
    </li>
  );
}

/** The ordered steps: drag and drop (pointer or keyboard: Space, arrows, Space) or the move buttons. */
export function StepList({ organizationId, names }: { organizationId: string | null; names: Record<string, string> }) {
  const form = useFormContext<WorkflowForm>();
  const { fields, move, remove, append } = useFieldArray({ control: form.control, name: 'steps' });
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    // Instant scrolling: a smooth scroll would let a quick drop land before the step moved.
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates, scrollBehavior: 'auto' }),
  );
  const positionOf = (id: string | number) => fields.findIndex((f) => f.id === id) + 1;
  const stepName = (id: string | number) => {
    const index = fields.findIndex((f) => f.id === id);
    return form.getValues(`steps.${index}.name`) || `step ${index + 1}`;
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Picked up ${stepName(active.id)}, position ${positionOf(active.id)} of ${fields.length}.`,
    onDragOver: ({ active, over }) =>
      over ? `${stepName(active.id)} is over position ${positionOf(over.id)} of ${fields.length}.` : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? `${stepName(active.id)} dropped at position ${positionOf(over.id)} of ${fields.length}.`
        : `${stepName(active.id)} dropped.`,
    onDragCancel: ({ active }) => `Moving ${stepName(active.id)} was cancelled.`,
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = fields.findIndex((f) => f.id === active.id);
    const to = fields.findIndex((f) => f.id === over.id);
    if (from >= 0 && to >= 0) move(from, to);
  };

  const stepsError = form.formState.errors.steps as { message?: string; root?: { message?: string } } | undefined;
  const listMessage = stepsError?.message ?? stepsError?.root?.message;

  return (
    <div className="flex flex-col gap-3">
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              'To pick up a step, press Space or Enter. Use the arrow keys to move it, Space or Enter to drop it, Escape to cancel.',
          },
        }}
      >
        <SortableContext items={fields.map((f) => f.id)} strategy={verticalListSortingStrategy}>
          <ol className="flex flex-col gap-3" aria-label="Approval steps">
            {fields.map((field, index) => (
              <StepCard
                key={field.id}
                id={field.id}
                index={index}
                count={fields.length}
                organizationId={organizationId}
                names={names}
                onMove={(from, to) => move(from, to)}
                onRemove={() => remove(index)}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      {listMessage && (
        <p className="text-xs font-medium text-destructive" role="alert">
          {listMessage}
        </p>
      )}
      <Button
        variant="outline"
        className="self-start"
        disabled={fields.length >= 10}
        onClick={() => append({ ...NEW_STEP, name: `Step ${fields.length + 1}` })}
      >
        <Plus aria-hidden="true" />
        Add step
      </Button>
    </div>
  );
}
